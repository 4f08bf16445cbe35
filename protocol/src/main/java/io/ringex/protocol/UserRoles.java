package io.ringex.protocol;

import io.ringex.protocol.codecs.UserRole;

/**
 * How people spell a user's role, the one spelling for the admin tool's options, reference-data files and the
 * gateway's configuration: {@code trader}, {@code drop-copy} and {@code clearing}. {@code drop_copy} (the schema's
 * {@code DROP_COPY} in lower case, which files and the gateway's configuration once took alone) is read as an alias
 * everywhere; case is ignored. Every place that shows a role writes {@link #name(UserRole)}.
 * <p>
 * Thread safety: stateless.
 */
public final class UserRoles
{
    /** The spellings taken, for error messages. */
    public static final String SPELLINGS = "trader, drop-copy (or drop_copy) or clearing";

    private UserRoles()
    {
    }

    /**
     * @param role a role.
     * @return its spelling: {@code trader}, {@code drop-copy} or {@code clearing}.
     */
    public static String name(final UserRole role)
    {
        return switch (role)
        {
            case TRADER -> "trader";
            case DROP_COPY -> "drop-copy";
            case CLEARING -> "clearing";
            default -> role.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * @param text a role as a person spelt it.
     * @return the role, or null when the text is none of {@link #SPELLINGS} (any case).
     */
    public static UserRole parse(final String text)
    {
        if (null == text)
        {
            return null;
        }
        for (final UserRole role : UserRole.values())
        {
            if (role != UserRole.NULL_VAL && (name(role).equalsIgnoreCase(text) ||
                role.name().equalsIgnoreCase(text)))
            {
                return role;
            }
        }
        return null;
    }
}
