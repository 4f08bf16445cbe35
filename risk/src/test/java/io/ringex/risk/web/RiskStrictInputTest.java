package io.ringex.risk.web;

import static io.ringex.risk.web.XsrfToken.xsrf;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.springframework.security.test.web.servlet.request.SecurityMockMvcRequestPostProcessors.user;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.RequestPostProcessor;

/**
 * What the REST API reads, as an attacker probes it: ids in a path or a query are decimal integers only (not
 * {@code 0x3EB}, {@code #3EB}, {@code +1003}), a query parameter is given once, a JSON key once, and an enum value
 * exactly as docs/risk-api.md spells it. Each refusal is a 400 naming the field; the spelling the documents give is
 * still taken. Every endpoint with an id, a number parameter, a body or an enum is probed, not only the examples.
 */
@RiskServiceOnAPort
class RiskStrictInputTest
{
    private static final RequestPostProcessor VIEWER = user("viewer").roles("VIEWER");
    private static final RequestPostProcessor OFFICER = user("officer").roles("RISK_OFFICER");
    private static final RequestPostProcessor ADMIN = user("admin").roles("ADMIN");

    @Autowired
    private MockMvc mvc;

    @LocalServerPort
    private int port;

    /**
     * On the wire, as the probe sent them: {@code /api/accounts/0x3EB}, {@code %233EB} and {@code +1003} used to
     * answer account 1003.
     */
    @Test
    void pathIdsAreDecimalIntegersOnly() throws Exception
    {
        final Map<String, String> refused = new LinkedHashMap<>();
        for (final String id : List.of("0x3EB", "0X3eb", "%233EB", "+1003", "%2B1003", "1003.0", "1e3", "%201003",
            "1003%20", "0x", "99999999999999999999", "-0x3EB"))
        {
            refused.put("/api/accounts/" + id, "id");
        }
        refused.put("/api/instruments/0x1", "id");
        refused.put("/api/instruments/+1", "id");
        refused.put("/api/actions/0x10", "requestId");
        for (final Map.Entry<String, String> probe : refused.entrySet())
        {
            final RawHttp.Response answer = RawHttp.send(port, List.of("GET " + probe.getKey() + " HTTP/1.1",
                "Host: localhost", RawHttp.basic("viewer", "viewer")), null);
            assertEquals(400, answer.status(), probe.getKey() + ": " + answer);
            assertTrue(answer.body().contains("\"message\":\"" + probe.getValue() + " must be a decimal integer"),
                probe.getKey() + ": " + answer);
        }
        final RawHttp.Response decimal = RawHttp.send(port, List.of("GET /api/accounts/1003 HTTP/1.1",
            "Host: localhost", RawHttp.basic("viewer", "viewer")), null);
        assertEquals(404, decimal.status(), "a decimal id is read (no such account here): " + decimal);
        final RawHttp.Response leadingZeros = RawHttp.send(port, List.of("GET /api/actions/0016 HTTP/1.1",
            "Host: localhost", RawHttp.basic("viewer", "viewer")), null);
        assertEquals(404, leadingZeros.status(), "still decimal: " + leadingZeros);
    }

    @Test
    void queryNumbersAreDecimalIntegersOnlyAndAParameterIsGivenOnce() throws Exception
    {
        final Map<String, String> refused = new LinkedHashMap<>();
        refused.put("/api/audit?order=0x10", "order must be a decimal integer");
        refused.put("/api/audit?order=%2B16", "order must be a decimal integer");
        refused.put("/api/audit?order=%2316", "order must be a decimal integer");
        refused.put("/api/audit?account=0x3EB", "account must be a decimal integer");
        refused.put("/api/audit?clientOrder=C1&account=1e3", "account must be a decimal integer");
        refused.put("/api/audit?account=1003&limit=0x10", "limit must be a decimal integer");
        refused.put("/api/admin-log?limit=0x10", "limit must be a decimal integer");
        refused.put("/api/admin-log?limit=%2010", "limit must be a decimal integer");
        refused.put("/api/audit?order=16&order=17", "order is given more than once");
        refused.put("/api/audit?account=1003&account=1004", "account is given more than once");
        refused.put("/api/accounts?sort=pnl&sort=exposure", "sort is given more than once");
        refused.put("/api/admin-log?limit=10&limit=20", "limit is given more than once");
        for (final Map.Entry<String, String> probe : refused.entrySet())
        {
            mvc.perform(get(URI.create(probe.getKey())).with(VIEWER))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.error").value("BAD_REQUEST"))
                .andExpect(jsonPath("$.message", containsString(probe.getValue())));
        }
        mvc.perform(get(URI.create("/api/admin-log?limit=20")).with(VIEWER)).andExpect(status().isOk());
        // no journal in this service: a well-formed question gets as far as the audit service
        mvc.perform(get(URI.create("/api/audit?order=16")).with(VIEWER)).andExpect(status().isServiceUnavailable());
    }

    /**
     * Enum values exactly as docs/risk-api.md spells them: {@code "scope":"account"} used to be taken for ACCOUNT, and
     * {@code ?sort=UTILISATION} for utilisation.
     */
    @Test
    void enumValuesAreTakenExactlyAsDocumented() throws Exception
    {
        expectRefused(OFFICER, "/api/actions/kill-switch",
            "{\"scope\":\"account\",\"accountId\":1004,\"active\":true,\"reason\":\"r\"}",
            "scope must be one of [ACCOUNT, VENUE]");
        expectRefused(OFFICER, "/api/actions/kill-switch",
            "{\"scope\":\" ACCOUNT\",\"accountId\":1004,\"active\":true,\"reason\":\"r\"}", "scope must be one of");
        expectRefused(OFFICER, "/api/actions/kill-switch",
            "{\"scope\":\"Venue\",\"accountId\":0,\"active\":true,\"reason\":\"r\"}", "scope must be one of");
        expectRefused(OFFICER, "/api/actions/trading-status",
            "{\"instrumentId\":1,\"status\":\"halted\",\"reason\":\"r\"}",
            "status must be one of [OPEN, HALTED, CLOSED");
        expectRefused(ADMIN, "/api/admin/accounts/open",
            "{\"accountId\":2001,\"selfTradePrevention\":\"cancel_newest\",\"reason\":\"new client\"}",
            "selfTradePrevention must be one of");
        expectRefused(ADMIN, "/api/admin/accounts/status",
            "{\"accountId\":2001,\"status\":\"Suspended\",\"reason\":\"r\"}", "status must be one of");
        expectRefused(ADMIN, "/api/admin/instruments/add", "{\"instrumentId\":4,\"symbol\":\"NEW-USD\"," +
            "\"priceScale\":2,\"tickSize\":\"0.01\",\"lotSize\":1,\"referencePrice\":\"50.00\"," +
            "\"priceBandType\":\"ticks\",\"priceBand\":20,\"reason\":\"listing\"}", "priceBandType must be one of");
        for (final String sort : List.of("UTILISATION", "Exposure", " pnl", "balance "))
        {
            mvc.perform(get("/api/accounts").param("sort", sort).with(VIEWER))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.message", containsString("sort must be one of utilisation")));
        }

        // as documented, they are taken (no engine here: 503 once the command is built)
        expectAccepted(OFFICER, "/api/actions/kill-switch",
            "{\"scope\":\"ACCOUNT\",\"accountId\":1004,\"active\":true,\"reason\":\"r\"}");
        expectAccepted(OFFICER, "/api/actions/trading-status",
            "{\"instrumentId\":1,\"status\":\"HALTED\",\"reason\":\"r\"}");
        expectAccepted(ADMIN, "/api/admin/accounts/open",
            "{\"accountId\":2001,\"selfTradePrevention\":\"CANCEL_NEWEST\",\"reason\":\"new client\"}");
        mvc.perform(get("/api/accounts").param("sort", "exposure").with(VIEWER)).andExpect(status().isOk());
    }

    /**
     * {@code phaseDurationNs} used to be refused as an unknown field, so a timed call auction could not be started
     * from the dashboard: it is a JSON integer of 1 ns to 24 h, for PRE_OPEN, OPENING_AUCTION and CLOSING_AUCTION
     * only; the endpoint takes the statuses risk-api.md lists and no other.
     */
    @Test
    void aTimedCallAuctionIsTakenAndItsDurationReadStrictly() throws Exception
    {
        expectAccepted(OFFICER, "/api/actions/trading-status",
            "{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationNs\":300000000000,\"reason\":\"open\"}");
        expectAccepted(OFFICER, "/api/actions/trading-status",
            "{\"instrumentId\":1,\"status\":\"CLOSING_AUCTION\",\"phaseDurationNs\":1,\"reason\":\"close\"}");
        expectAccepted(OFFICER, "/api/actions/trading-status",
            "{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationNs\":null,\"reason\":\"untimed\"}");
        for (final String status : List.of("OPEN", "HALTED", "CLOSED", "OPENING_AUCTION"))
        {
            expectAccepted(OFFICER, "/api/actions/trading-status",
                "{\"instrumentId\":1,\"status\":\"" + status + "\",\"reason\":\"r\"}");
        }
        final Map<String, String> refused = new LinkedHashMap<>();
        refused.put("{\"instrumentId\":1,\"status\":\"HALTED\",\"phaseDurationNs\":1000000000,\"reason\":\"r\"}",
            "phaseDurationNs is for a call phase that ends by itself");
        refused.put("{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationNs\":0,\"reason\":\"r\"}",
            "phaseDurationNs must be 1 to 86400000000000 (24 h) nanoseconds, was 0");
        refused.put("{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationNs\":-5,\"reason\":\"r\"}",
            "was -5");
        refused.put("{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationNs\":86400000000001," +
            "\"reason\":\"r\"}", "was 86400000000001");
        refused.put("{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationNs\":\"300\",\"reason\":\"r\"}",
            "phaseDurationNs must be a JSON integer");
        refused.put("{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationNs\":1.5,\"reason\":\"r\"}",
            "phaseDurationNs must be a JSON integer");
        refused.put("{\"instrumentId\":1,\"status\":\"PRE_OPEN\",\"phaseDurationMs\":300,\"reason\":\"r\"}",
            "unknown field 'phaseDurationMs'");
        refused.put("{\"instrumentId\":1,\"status\":\"VOLATILITY_AUCTION\",\"reason\":\"r\"}",
            "status must be one of [OPEN, HALTED, CLOSED, PRE_OPEN, OPENING_AUCTION, CLOSING_AUCTION]");
        refused.put("{\"instrumentId\":1,\"status\":\"DELISTED\",\"reason\":\"r\"}", "status must be one of");
        for (final Map.Entry<String, String> probe : refused.entrySet())
        {
            expectRefused(OFFICER, "/api/actions/trading-status", probe.getKey(), probe.getValue());
        }
    }

    /**
     * {@code {"accountId":1004,"accountId":1005}} used to act on 1005: a key given twice is refused, naming it,
     * wherever it is (top level, a nested object, any endpoint's body).
     */
    @Test
    void aJsonKeyGivenTwiceIsRefusedNamingIt() throws Exception
    {
        expectRefused(OFFICER, "/api/actions/kill-switch",
            "{\"scope\":\"ACCOUNT\",\"accountId\":1004,\"accountId\":1005,\"active\":true}",
            "accountId is given more than once");
        expectRefused(OFFICER, "/api/actions/limits", "{\"accountId\":1003,\"maxOrderQuantity\":100," +
            "\"maxOrderNotional\":\"250000.00\",\"creditLimit\":\"500000\",\"defaultPositionLimit\":40," +
            "\"maxOpenOrders\":50,\"allowShort\":false,\"positionLimits\":[{\"instrumentId\":3," +
            "\"positionLimit\":2000000,\"positionLimit\":1}]}", "positionLimit is given more than once");
        expectRefused(OFFICER, "/api/actions/trading-status",
            "{\"instrumentId\":1,\"status\":\"HALTED\",\"status\":\"OPEN\"}", "status is given more than once");
        expectRefused(OFFICER, "/api/actions/snapshot", "{\"reason\":\"end of day\",\"reason\":\"x\"}",
            "reason is given more than once");
        expectRefused(ADMIN, "/api/actions/unlock-logons",
            "{\"username\":\"alice\",\"address\":\"\",\"reason\":\"a\",\"reason\":\"b\"}",
            "reason is given more than once");
        expectRefused(ADMIN, "/api/admin/accounts/deposit", "{\"accountId\":2001,\"amount\":\"25000.00\"," +
            "\"amount\":\"1.00\",\"reference\":\"WIRE-1\",\"reason\":\"funding\"}", "amount is given more than once");
        expectRefused(ADMIN, "/api/security/unlock", "{\"username\":\"mallory\",\"username\":\"alice\"}",
            "username is given more than once");
    }

    private void expectRefused(final RequestPostProcessor who, final String path, final String body,
        final String message) throws Exception
    {
        mvc.perform(post(path).with(who).with(xsrf()).contentType(MediaType.APPLICATION_JSON).content(body))
            .andExpect(status().isBadRequest())
            .andExpect(jsonPath("$.error").value("BAD_REQUEST"))
            .andExpect(jsonPath("$.message", containsString(message)));
    }

    private void expectAccepted(final RequestPostProcessor who, final String path, final String body)
        throws Exception
    {
        mvc.perform(post(path).with(who).with(xsrf()).contentType(MediaType.APPLICATION_JSON).content(body))
            .andExpect(status().isServiceUnavailable());
    }
}
