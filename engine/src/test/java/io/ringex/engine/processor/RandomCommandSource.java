package io.ringex.engine.processor;

import io.ringex.client.CommandEncoder;

/**
 * {@link RandomCommands} for tests of other packages (the replay tools' property test): the venue's setup commands,
 * then a seeded stream of mixed commands, each written to the encoder's buffer.
 */
public final class RandomCommandSource
{
    /** The source id the stream's commands are sent from. */
    public static final long SOURCE = RandomCommands.SESSION_BASE;

    private final RandomCommands commands;
    private int setup;

    /**
     * @param seed      the stream's seed.
     * @param encoder   where commands are written.
     * @param processor the live processor (the stream picks order ids it knows).
     */
    public RandomCommandSource(final long seed, final CommandEncoder encoder, final BusinessLogicProcessor processor)
    {
        commands = new RandomCommands(seed, encoder, processor);
    }

    /** @return the length of the next command written to the encoder's buffer. */
    public int next()
    {
        return setup < RandomCommands.setupCount() ? commands.setupCommand(setup++) : commands.next();
    }
}
