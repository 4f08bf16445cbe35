package io.ringex.engine.book;

/**
 * Whatever record the risk layer counts an order's exposure in (its account's position in the instrument), as the
 * order sees it: a marker, so the book package needs nothing from the risk package.
 * <p>
 * Why the order keeps it: a replace or a fill reaches the position through the order it already holds, instead of a
 * hash lookup in the account (two cache misses with a hundred instruments per account).
 */
public interface ExposureRecord
{
}
