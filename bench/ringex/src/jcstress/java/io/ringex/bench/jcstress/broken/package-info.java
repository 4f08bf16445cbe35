/**
 * Deliberately broken copies of the ring's claim/publish protocol, each under the same contract (the same ACCEPTABLE
 * and FORBIDDEN outcomes) as the real test it copies, to show that those tests can fail. They are run only on demand
 * ({@code bench/jcstress.sh broken}) and are expected to FAIL: the real run selects only the classes directly in
 * {@code io.ringex.bench.jcstress}.
 */
package io.ringex.bench.jcstress.broken;
