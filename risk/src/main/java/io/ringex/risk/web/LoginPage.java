package io.ringex.risk.web;

import org.springframework.http.MediaType;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;

/**
 * The dashboard's login page, in the dashboard's look: the form Spring Security's form login checks ({@code POST
 * /login}, user name, password and the CSRF token), and what happened last (a refused login, a logout). A refused
 * login says the same whether the password was wrong, the user unknown or the login locked (docs/security.md): the
 * page must not tell an attacker which. No script, no inline style: the Content-Security-Policy holds here too.
 * <p>
 * Threading: stateless; any request thread.
 */
@Controller
public class LoginPage
{
    /**
     * @param token  the request's CSRF token, put in the form.
     * @param error  present after a refused login.
     * @param logout present after a logout.
     * @return the page.
     */
    @GetMapping(path = "/login", produces = MediaType.TEXT_HTML_VALUE)
    @ResponseBody
    public String login(
        final CsrfToken token,
        @RequestParam(name = "error", required = false) final String error,
        @RequestParam(name = "logout", required = false) final String logout)
    {
        final String message = error != null ?
            "<p class=\"message bad\" role=\"alert\">Login refused: the user name or password is wrong, or this " +
            "login is locked after repeated failures. Wait a minute and try again.</p>" :
            logout != null ? "<p class=\"message ok\" role=\"status\">You are logged out.</p>" : "";
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Ringex Risk: log in</title>
                <link rel="icon" href="favicon.svg" type="image/svg+xml">
                <link rel="stylesheet" href="css/login.css">
            </head>
            <body>
            <main class="card">
                <div class="brand"><img src="favicon.svg" alt="">Ringex <span>Risk</span></div>
                <p class="tagline">Risk dashboard and operator console</p>
                %s
                <form method="post" action="login">
                    <label>User name <input name="username" autocomplete="username" required autofocus></label>
                    <label>Password <input name="password" type="password" autocomplete="current-password"
                        required></label>
                    <input name="%s" type="hidden" value="%s">
                    <button type="submit">Log in</button>
                </form>
                <p class="hint">Locked out after failed logins? An administrator lifts the lock in the Console.</p>
            </main>
            </body>
            </html>
            """.formatted(message, escape(token.getParameterName()), escape(token.getToken()));
    }

    private static String escape(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
            .replace("'", "&#39;");
    }
}
