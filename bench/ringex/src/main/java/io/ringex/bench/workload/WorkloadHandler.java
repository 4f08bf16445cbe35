package io.ringex.bench.workload;

/**
 * Receives the records of a workload file in order. The command is a flyweight valid only during the call.
 */
@FunctionalInterface
public interface WorkloadHandler
{
    /**
     * One record.
     *
     * @param index   0-based record index in the file (prefill records first).
     * @param command the record; do not keep it.
     */
    void onCommand(long index, WorkloadCommand command);
}
