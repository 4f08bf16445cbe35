package io.ringex.engine.processor;

/**
 * The operator and reason every operator's change carries from schema version 4 (AddInstrument, AddAccount,
 * SetLimits, SetTradingStatus, SetDynamicBand, KillSwitch, TakeSnapshot, EndOfDay; the changes added later carried
 * them from the start): a change of that version without an operator of 1 to {@value Text#MAX_OPERATOR} printable
 * characters (no spaces) or with a reason beyond {@value Text#MAX_REASON} printable characters is INVALID_ARGUMENT.
 * A change written before version 4 has neither and is taken as it always was, so an older journal replays to the
 * same state. Checked without allocating: the bytes are copied into buffers of its own.
 * <p>
 * Threading: single business-logic thread.
 */
final class AuditFields
{
    /** The schema version from which the changes above carry operatorName and reason. */
    static final int SINCE_VERSION = 4;

    final byte[] operator = new byte[Text.MAX_OPERATOR];
    final byte[] reason = new byte[Text.MAX_REASON];

    /**
     * Use as {@code audit.valid(d.operatorNameLength(), d.getOperatorName(audit.operator, 0, MAX_OPERATOR),
     * d.reasonLength(), d.getReason(audit.reason, 0, MAX_REASON))}: the arguments read the two fields in wire order.
     *
     * @param operatorLength the operatorName field's length.
     * @param operatorCopied the bytes of it copied into {@link #operator}.
     * @param reasonLength   the reason field's length.
     * @param reasonCopied   the bytes of it copied into {@link #reason}.
     * @return whether both are usable.
     */
    boolean valid(final int operatorLength, final int operatorCopied, final int reasonLength, final int reasonCopied)
    {
        return operatorLength == operatorCopied && reasonLength == reasonCopied &&
            Text.isAscii(operator, operatorLength, 1, Text.MAX_OPERATOR, false) &&
            Text.isAscii(reason, reasonLength, 0, Text.MAX_REASON, true);
    }
}
