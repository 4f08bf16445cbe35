package io.ringex.gateway.auth;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.ringex.protocol.CredentialHash;

/**
 * Prints a {@link CredentialHash} for a password, for the {@code ringex.gateway.user.<name>.credential} key.
 * <p>
 * Usage: {@code java io.ringex.gateway.auth.HashCredential [iterations]}. The password is read from the console
 * without echo, or from the first line of standard input when there is no console; it is never an argument, so it
 * never shows in the process list or shell history.
 */
public final class HashCredential
{
    private HashCredential()
    {
    }

    /**
     * @param args optional iteration count.
     * @throws IOException if standard input cannot be read.
     */
    public static void main(final String[] args) throws IOException
    {
        final int iterations = args.length > 0 ? Integer.parseInt(args[0]) : CredentialHash.DEFAULT_ITERATIONS;
        final char[] password;
        final Console console = System.console();
        if (console != null)
        {
            password = console.readPassword("password: ");
        }
        else
        {
            final BufferedReader reader = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            final String line = reader.readLine();
            password = line == null ? null : line.toCharArray();
        }
        if (password == null || password.length == 0)
        {
            System.err.println("no password given");
            System.exit(1);
            return;
        }
        try
        {
            System.out.println(CredentialHash.hash(password, iterations));
        }
        finally
        {
            Arrays.fill(password, '\0');
        }
    }
}
