package io.ringex.journal;

import org.agrona.DirectBuffer;

/**
 * Reads a whole journal and reports what recovery would find: how many good records, the sequence range, torn writes
 * that a restart repaired, a torn tail, and gaps in the middle.
 * <p>
 * Thread safety: one verification per thread.
 */
public final class JournalVerifier
{
    /** What a verification found. */
    public static final class Report implements JournalRecordHandler
    {
        private long records;
        private long firstSequence;
        private long lastSequence;
        private long firstTimestampNs;
        private long lastTimestampNs;
        private long payloadBytes;
        private final long[] countsByTemplate = new long[128];
        private long repairedRecords;
        private long gaps;
        private String firstProblem;
        private boolean tornTail;

        public void onRecord(
            final long sequence,
            final long timestampNs,
            final long sourceId,
            final int templateId,
            final DirectBuffer buffer,
            final int offset,
            final int length)
        {
            if (records == 0)
            {
                firstSequence = sequence;
                firstTimestampNs = timestampNs;
            }
            records++;
            lastSequence = sequence;
            lastTimestampNs = timestampNs;
            payloadBytes += length;
            if (templateId >= 0 && templateId < countsByTemplate.length)
            {
                countsByTemplate[templateId]++;
            }
        }

        /** @return good records. */
        public long records()
        {
            return records;
        }

        /** @return sequence of the first good record, 0 if none. */
        public long firstSequence()
        {
            return firstSequence;
        }

        /** @return sequence of the last good record, 0 if none. */
        public long lastSequence()
        {
            return lastSequence;
        }

        /** @return timestamp of the first good record. */
        public long firstTimestampNs()
        {
            return firstTimestampNs;
        }

        /** @return timestamp of the last good record. */
        public long lastTimestampNs()
        {
            return lastTimestampNs;
        }

        /** @return payload bytes of the good records. */
        public long payloadBytes()
        {
            return payloadBytes;
        }

        /**
         * @param templateId a template id below 128.
         * @return good records of that template.
         */
        public long count(final int templateId)
        {
            return countsByTemplate[templateId];
        }

        /** @return torn writes that the writer redid. */
        public long repairedRecords()
        {
            return repairedRecords;
        }

        /** @return gaps in the middle. */
        public long gaps()
        {
            return gaps;
        }

        /** @return the first gap's description, or null. */
        public String firstProblem()
        {
            return firstProblem;
        }

        /** @return true if the journal ends with a torn record. */
        public boolean tornTail()
        {
            return tornTail;
        }

        /** @return true if recovery may start from this journal without an operator's say-so. */
        public boolean isClean()
        {
            return gaps == 0;
        }

        public String toString()
        {
            return "records=" + records + " sequences=" + firstSequence + ".." + lastSequence +
                " repairedTornWrites=" + repairedRecords + " tornTail=" + tornTail + " gaps=" + gaps +
                (firstProblem == null ? "" : " firstGap=[" + firstProblem + "]");
        }
    }

    private JournalVerifier()
    {
    }

    /**
     * Verify a whole journal.
     *
     * @param journal the journal.
     * @return the report.
     */
    public static Report verify(final Journal journal)
    {
        final Report report = new Report();
        try (JournalReader reader = journal.newReader().allowGaps(true))
        {
            while (reader.read(report, 4096) > 0)
            {
                // read everything
            }
            report.repairedRecords = reader.repairedRecords();
            report.gaps = reader.gaps();
            report.firstProblem = reader.problem();
            report.tornTail = reader.tornTail();
        }
        return report;
    }
}
