package io.ringex.risk.model;

/** Orders of the accounts table; each is worst-first (largest first), except ACCOUNT which is by id. */
public enum AccountSort
{
    /** Largest limit utilisation first: the default, so the accounts to look at are on top. */
    UTILISATION,
    /** Largest exposure first. */
    EXPOSURE,
    /** Largest loss first (lowest total P&amp;L). */
    PNL,
    /** Lowest balance first. */
    BALANCE,
    /** By account id. */
    ACCOUNT
}
