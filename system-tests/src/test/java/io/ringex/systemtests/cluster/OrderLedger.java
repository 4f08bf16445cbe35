package io.ringex.systemtests.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one trader sent and what it was told, order by order, for the drills' checks: every order answered exactly
 * once (acknowledged, or refused with a reason), every cancel likewise, and the orders the trader believes open.
 * <p>
 * The test's thread.
 */
final class OrderLedger
{
    enum Answer
    {
        ACKNOWLEDGED, REJECTED
    }

    private final String trader;
    private final Map<String, Answer> answers = new LinkedHashMap<>();
    private final Map<String, Long> sentNs = new LinkedHashMap<>();
    private final Deque<String> open = new ArrayDeque<>();
    private final Map<String, String> cancels = new LinkedHashMap<>();
    private final Map<String, String> cancelled = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Integer> rejectReasons = new LinkedHashMap<>();
    private long firstAckAfterNs;
    private long firstAckNs;

    OrderLedger(final String trader)
    {
        this.trader = trader;
    }

    void sent(final String clientOrderId)
    {
        sentNs.put(clientOrderId, System.nanoTime());
    }

    void cancelSent(final String cancelId, final String origClientOrderId)
    {
        cancels.put(cancelId, null);
        cancelled.put(cancelId, origClientOrderId);
        open.remove(origClientOrderId);
    }

    void acknowledged(final String clientOrderId)
    {
        if (answer(clientOrderId, Answer.ACKNOWLEDGED))
        {
            open.addLast(clientOrderId);
            final Long sent = sentNs.get(clientOrderId);
            if (firstAckAfterNs != 0 && firstAckNs == 0 && null != sent && sent >= firstAckAfterNs)
            {
                firstAckNs = System.nanoTime();
            }
        }
    }

    void rejected(final String clientOrderId, final String reason)
    {
        if (answer(clientOrderId, Answer.REJECTED))
        {
            rejectReasons.merge(reason, 1, Integer::sum);
        }
    }

    void cancelAnswered(final String cancelId, final String outcome)
    {
        if (!cancels.containsKey(cancelId))
        {
            return;
        }
        final String before = cancels.put(cancelId, outcome);
        if (null != before)
        {
            problems.add(trader + ": cancel " + cancelId + " answered twice (" + before + ", then " + outcome + ")");
        }
        else if (isRefusedForNow(outcome))
        {
            // Not sent on (no primary for a moment, busy, in doubt): the order is still open; cancelled again later.
            open.addFirst(cancelled.get(cancelId));
        }
    }

    private static boolean isRefusedForNow(final String outcome)
    {
        final String upper = outcome.toUpperCase();
        return upper.contains("NO_PRIMARY") || upper.contains("NO PRIMARY") || upper.contains("BUSY") ||
            upper.contains("OUTCOME_UNKNOWN") || upper.contains("OUTCOME UNKNOWN");
    }

    private boolean answer(final String clientOrderId, final Answer answer)
    {
        if (!sentNs.containsKey(clientOrderId))
        {
            return false;
        }
        final Answer before = answers.putIfAbsent(clientOrderId, answer);
        if (null != before)
        {
            problems.add(trader + ": order " + clientOrderId + " answered twice (" + before + ", then " + answer + ")");
            return false;
        }
        return true;
    }

    /**
     * Time the first acknowledgement of an order sent from now on (a failover's kill).
     */
    void markFailover()
    {
        firstAckAfterNs = System.nanoTime();
        firstAckNs = 0;
    }

    /**
     * @return nanoseconds from the mark to the first acknowledgement of an order sent after it, or -1.
     */
    long failoverToFirstAckNs()
    {
        return firstAckNs == 0 ? -1 : firstAckNs - firstAckAfterNs;
    }

    /**
     * @return the oldest order believed open, no longer believed so, or null.
     */
    String oldestOpen()
    {
        return open.peekFirst();
    }

    List<String> open()
    {
        return new ArrayList<>(open);
    }

    int openCount()
    {
        return open.size();
    }

    long sent()
    {
        return sentNs.size();
    }

    long answered()
    {
        return answers.size();
    }

    long acknowledged()
    {
        return answers.values().stream().filter((a) -> a == Answer.ACKNOWLEDGED).count();
    }

    List<String> acknowledgedIds()
    {
        final List<String> ids = new ArrayList<>();
        answers.forEach((id, answer) ->
        {
            if (answer == Answer.ACKNOWLEDGED)
            {
                ids.add(id);
            }
        });
        return ids;
    }

    long unansweredCancels()
    {
        return cancels.values().stream().filter((outcome) -> null == outcome).count();
    }

    Map<String, String> cancelOutcomes()
    {
        return cancels;
    }

    List<String> problems()
    {
        return problems;
    }

    List<String> unanswered()
    {
        final List<String> missing = new ArrayList<>();
        for (final String id : sentNs.keySet())
        {
            if (!answers.containsKey(id))
            {
                missing.add(id);
            }
        }
        return missing;
    }

    /**
     * @param id an order sent.
     * @return when it was sent, by {@link System#nanoTime()}.
     */
    long sentNs(final String id)
    {
        return sentNs.get(id);
    }

    public String toString()
    {
        return trader + ": sent " + sent() + ", acknowledged " + acknowledged() + ", refused " +
            (answered() - acknowledged()) + " " + rejectReasons + ", open " + open.size() + ", unanswered " +
            (sent() - answered());
    }
}
