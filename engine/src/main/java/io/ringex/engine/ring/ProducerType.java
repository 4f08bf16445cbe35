package io.ringex.engine.ring;

/**
 * How many threads claim slots on a ring, which picks the {@link Sequencer} implementation.
 * <p>
 * Threading: an immutable value; chosen on the {@link Ring.Builder}.
 */
public enum ProducerType
{
    /**
     * Exactly one thread claims and publishes: claim is a plain increment, no CAS.
     */
    SINGLE,

    /**
     * Any number of threads claim concurrently: the claim sequence is advanced atomically and each slot carries an
     * availability flag so consumers never read a slot that is claimed but not yet published.
     */
    MULTI
}
