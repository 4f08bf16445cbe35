package io.ringex.risk.web;

import java.security.Principal;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.ringex.risk.actions.ActionView;
import io.ringex.risk.actions.ConsoleActions;
import io.ringex.risk.actions.ConsoleRequests;

/**
 * The operator console ({@code POST /api/admin/**}): ADMIN only, with the CSRF token. Each names the logged-in ADMIN
 * as the operator and takes a reason, and answers 202 Accepted with the action (creating a user: the two actions)
 * as the risk officer's actions do; the engine's verdict follows on GET /api/actions/{requestId}, the live stream and
 * the admin log. 400 for a malformed request, 409 for one that does not apply ({@code UNKNOWN_INSTRUMENT},
 * {@code UNKNOWN_USER}, {@code USER_EXISTS}, {@code DIRECTORY_NOT_LOADED}), 503 when the command could not be sent
 * ({@link ActionErrors}).
 */
@RestController
@RequestMapping(path = "/api/admin", produces = "application/json")
public class ConsoleController
{
    private final ConsoleActions console;

    /**
     * @param console the console's commands.
     */
    public ConsoleController(final ConsoleActions console)
    {
        this.console = console;
    }

    /**
     * @param request the new instrument.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/instruments/add")
    public ResponseEntity<ActionView> addInstrument(
        @RequestBody final ConsoleRequests.AddInstrument request, final Principal admin)
    {
        return ActionController.accepted(console.addInstrument(request, admin.getName()));
    }

    /**
     * @param request the instrument's new static data.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/instruments/amend")
    public ResponseEntity<ActionView> amendInstrument(
        @RequestBody final ConsoleRequests.AmendInstrument request, final Principal admin)
    {
        return ActionController.accepted(console.amendInstrument(request, admin.getName()));
    }

    /**
     * @param request the instrument.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/instruments/delist")
    public ResponseEntity<ActionView> delistInstrument(
        @RequestBody final ConsoleRequests.DelistInstrument request, final Principal admin)
    {
        return ActionController.accepted(console.delistInstrument(request, admin.getName()));
    }

    /**
     * @param request the new account.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/accounts/open")
    public ResponseEntity<ActionView> openAccount(
        @RequestBody final ConsoleRequests.OpenAccount request, final Principal admin)
    {
        return ActionController.accepted(console.openAccount(request, admin.getName()));
    }

    /**
     * @param request the account and its new standing.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/accounts/status")
    public ResponseEntity<ActionView> accountStatus(
        @RequestBody final ConsoleRequests.AccountStatus request, final Principal admin)
    {
        return ActionController.accepted(console.accountStatus(request, admin.getName()));
    }

    /**
     * @param request the account, the amount and the payment's reference.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/accounts/deposit")
    public ResponseEntity<ActionView> deposit(
        @RequestBody final ConsoleRequests.Transfer request, final Principal admin)
    {
        return ActionController.accepted(console.transfer(request, true, admin.getName()));
    }

    /**
     * @param request the account, the amount and the payment's reference.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/accounts/withdraw")
    public ResponseEntity<ActionView> withdraw(
        @RequestBody final ConsoleRequests.Transfer request, final Principal admin)
    {
        return ActionController.accepted(console.transfer(request, false, admin.getName()));
    }

    /**
     * @param request the new user and its password.
     * @param admin   the operator.
     * @return 202 with the two actions: UPSERT_USER, then SET_PASSWORD.
     */
    @PostMapping("/users/create")
    public ResponseEntity<List<ActionView>> createUser(
        @RequestBody final ConsoleRequests.CreateUser request, final Principal admin)
    {
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(console.createUser(request, admin.getName()));
    }

    /**
     * @param request the user and its new password.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/users/password")
    public ResponseEntity<ActionView> setPassword(
        @RequestBody final ConsoleRequests.SetPassword request, final Principal admin)
    {
        return ActionController.accepted(console.setPassword(request, admin.getName()));
    }

    /**
     * @param request the user and whether it may log on.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/users/enabled")
    public ResponseEntity<ActionView> userEnabled(
        @RequestBody final ConsoleRequests.UserEnabled request, final Principal admin)
    {
        return ActionController.accepted(console.userEnabled(request, admin.getName()));
    }

    /**
     * @param request the user and the accounts it may trade.
     * @param admin   the operator.
     * @return 202 with the action.
     */
    @PostMapping("/users/accounts")
    public ResponseEntity<ActionView> userAccounts(
        @RequestBody final ConsoleRequests.UserAccounts request, final Principal admin)
    {
        return ActionController.accepted(console.userAccounts(request, admin.getName()));
    }
}
