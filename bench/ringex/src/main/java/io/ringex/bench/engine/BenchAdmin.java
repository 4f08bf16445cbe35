package io.ringex.bench.engine;

import io.ringex.client.AdminCommandSigner;
import io.ringex.client.AdminKeys;
import io.ringex.engine.node.EngineContext;
import io.ringex.protocol.MessageCatalog;
import io.ringex.protocol.codecs.MessageHeaderDecoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The benchmarks' admin key: the nodes they start take admin commands signed with it, and their clients sign the
 * workload's operator commands (its preamble) as they send them, the way an operator's tool does; order entry goes
 * as it is.
 * <p>
 * Threading: one instance per sending thread.
 */
public final class BenchAdmin
{
    /** The key the benchmarks' nodes hold. */
    public static final AdminKeys KEYS = AdminKeys.generate("bench");

    private final AdminCommandSigner signer = new AdminCommandSigner(KEYS.keys().get(0));
    private final UnsafeBuffer signed = new UnsafeBuffer(new byte[AdminCommandSigner.signedLength(4096)]);

    /**
     * A benchmark node's admin keys and its market-data requests on IPC.
     *
     * @param ctx the node's context.
     * @return it.
     */
    public static EngineContext configure(final EngineContext ctx)
    {
        return ctx.adminKeys(KEYS).marketDataRequestChannel("aeron:ipc");
    }

    /**
     * @param buffer holding a command.
     * @param offset where it starts.
     * @param length its length.
     * @return the length of the command signed into {@link #signed()} if it is an operator's; 0 if it goes as it is.
     */
    public int signIfOperator(final DirectBuffer buffer, final int offset, final int length)
    {
        final int templateId = buffer.getShort(offset + MessageHeaderDecoder.templateIdEncodingOffset(),
            MessageHeaderDecoder.BYTE_ORDER) & 0xFFFF;
        return MessageCatalog.isOperatorCommand(templateId) ? signer.sign(buffer, offset, length, signed, 0) : 0;
    }

    /** @return what {@link #signIfOperator} signed. */
    public UnsafeBuffer signed()
    {
        return signed;
    }
}
