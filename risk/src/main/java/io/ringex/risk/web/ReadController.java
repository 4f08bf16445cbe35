package io.ringex.risk.web;

import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import io.ringex.risk.model.AccountSort;
import io.ringex.risk.model.MarketMakerProtections;
import io.ringex.risk.model.RiskReadModel;
import io.ringex.risk.model.Views;

/** Read-only JSON views of the read model; any logged-in user. */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
public class ReadController
{
    private final RiskReadModel model;
    private final RoleHierarchy roles;

    /**
     * @param model the read model.
     * @param roles which roles include which (ADMIN includes RISK_OFFICER includes VIEWER).
     */
    public ReadController(final RiskReadModel model, final RoleHierarchy roles)
    {
        this.model = model;
        this.roles = roles;
    }

    /**
     * @param sort utilisation (default, worst first), exposure, pnl, balance or account.
     * @return every account.
     */
    @GetMapping("/accounts")
    public List<Views.AccountSummary> accounts(
        @RequestParam(name = "sort", defaultValue = "utilisation") final String sort)
    {
        return model.accounts(parseSort(sort));
    }

    /**
     * @param id the account.
     * @return its positions, limits and recent fills.
     */
    @GetMapping("/accounts/{id}")
    public Views.AccountDetail account(@PathVariable("id") final long id)
    {
        final Views.AccountDetail detail = model.account(id);
        if (detail == null)
        {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No account " + id);
        }
        return detail;
    }

    /**
     * @param id the account.
     * @return every limit a SetLimits replaces and the standing, as the engine's AccountDefinition last gave them
     *         ({@code known} false, every value null, before one arrived).
     */
    @GetMapping("/accounts/{id}/limits")
    public Views.AccountLimits limits(@PathVariable("id") final long id)
    {
        final Views.AccountLimits limits = model.limits(id);
        if (limits == null)
        {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No account " + id);
        }
        return limits;
    }

    /**
     * @param id the account.
     * @return its market-maker protection per group (limits, traded within the interval, frozen or not); empty if
     * it has none.
     */
    @GetMapping("/accounts/{id}/protection")
    public List<MarketMakerProtections.Group> protection(@PathVariable("id") final long id)
    {
        return model.protections().of(id);
    }

    /** @return every account's market-maker protection, by account then group. */
    @GetMapping("/protection")
    public List<MarketMakerProtections.Group> protections()
    {
        return model.protections().all();
    }

    /** @return every instrument. */
    @GetMapping("/instruments")
    public List<Views.InstrumentSummary> instruments()
    {
        return model.instruments();
    }

    /**
     * @param id the instrument.
     * @return its ladder (ten levels a side), tape (last 50 trades) and one-minute candles (the last hour with
     *         trades).
     */
    @GetMapping("/instruments/{id}")
    public Views.InstrumentDetail instrument(@PathVariable("id") final long id)
    {
        final Views.InstrumentDetail detail = model.instrument(id);
        if (detail == null)
        {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No instrument " + id);
        }
        return detail;
    }

    /** @return the engine's health with chart history. */
    @GetMapping("/engine")
    public Views.EngineView engine()
    {
        return model.engine(true);
    }

    /**
     * @param principal the logged-in user.
     * @return their name and every role they hold, the included ones too (an ADMIN is also RISK_OFFICER and
     *         VIEWER), for the page to show or hide the actions.
     */
    @GetMapping("/me")
    public Map<String, Object> me(final Principal principal)
    {
        final List<String> held = new ArrayList<>();
        if (principal instanceof Authentication auth)
        {
            for (final GrantedAuthority a : roles.getReachableGrantedAuthorities(auth.getAuthorities()))
            {
                if (a.getAuthority().startsWith("ROLE_"))
                {
                    held.add(a.getAuthority().substring("ROLE_".length()));
                }
            }
        }
        held.sort(null);
        return Map.of("username", principal.getName(), "roles", held);
    }

    /**
     * @param sort exactly as docs/risk-api.md spells it (lower case).
     * @return the order.
     * @throws BadRequestException naming the parameter for any other spelling.
     */
    static AccountSort parseSort(final String sort)
    {
        for (final AccountSort order : AccountSort.values())
        {
            if (order.name().toLowerCase(Locale.ROOT).equals(sort))
            {
                return order;
            }
        }
        throw new BadRequestException("sort must be one of utilisation, exposure, pnl, balance, account");
    }
}
