package io.ringex.gateway.web;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlatJsonTest
{
    @Test
    void readsAFlatObjectKeepingNumbersAsText() throws FlatJson.MalformedException
    {
        final Map<String, Object> members = FlatJson.parseObject(
            " {\"a\":\"x\\u0041\\n\",\"b\":0.1,\"c\":-12e3,\"d\":true,\"e\":null} ");
        assertEquals("xA\n", members.get("a"));
        assertEquals(new FlatJson.Number("0.1"), members.get("b"));
        assertEquals(new FlatJson.Number("-12e3"), members.get("c"));
        assertEquals(Boolean.TRUE, members.get("d"));
        assertTrue(members.containsKey("e"));
        assertNull(members.get("e"));
        assertTrue(FlatJson.parseObject("{}").isEmpty());
    }

    @Test
    void refusesWhatIsNotOneFlatObject()
    {
        for (final String text : new String[] {"", "[]", "{\"a\":{}}", "{\"a\":[1]}", "{\"a\":1,\"a\":2}",
            "{\"a\":1} x", "{\"a\":01}", "{\"a\":1.}", "{\"a\":NaN}", "{a:1}", "{\"a\":\"\u0001\"}", "{\"a\":1,}",
            "{\"a\":\"\\x\"}", "{\"a\":tru}", "{\"a\":\"open"})
        {
            assertThrows(FlatJson.MalformedException.class, () -> FlatJson.parseObject(text), text);
        }
    }

    @Test
    void quotesWhatJsonRequires()
    {
        assertEquals("\"a\\\"b\\\\c\\u000a\"", FlatJson.quote(new StringBuilder(), "a\"b\\c\n").toString());
    }
}
