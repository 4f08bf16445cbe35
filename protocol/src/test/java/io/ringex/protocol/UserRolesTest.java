package io.ringex.protocol;

import io.ringex.protocol.codecs.UserRole;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class UserRolesTest
{
    @Test
    void eachRoleHasOneSpellingAndTheSchemasNameIsAnAlias()
    {
        assertEquals("trader", UserRoles.name(UserRole.TRADER));
        assertEquals("drop-copy", UserRoles.name(UserRole.DROP_COPY));
        assertEquals("clearing", UserRoles.name(UserRole.CLEARING));
        for (final UserRole role : new UserRole[]{ UserRole.TRADER, UserRole.DROP_COPY, UserRole.CLEARING })
        {
            assertEquals(role, UserRoles.parse(UserRoles.name(role)));
            assertEquals(role, UserRoles.parse(role.name().toLowerCase(java.util.Locale.ROOT)));
            assertEquals(role, UserRoles.parse(role.name()));
        }
        assertEquals(UserRole.DROP_COPY, UserRoles.parse("Drop-Copy"));
        for (final String wrong : new String[]{ "dropcopy", "drop copy", "drop-copy ", "null_val", "NULL_VAL", "",
            "auditor" })
        {
            assertNull(UserRoles.parse(wrong), wrong);
        }
        assertNull(UserRoles.parse(null));
    }
}
