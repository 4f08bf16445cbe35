package io.ringex.risk.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.context.ActiveProfiles;

/**
 * The whole service on a real HTTP port (Tomcat) and through MockMvc, with the demo users, an embedded media driver
 * in a directory of its own, a test admin key and no engine: actions answer 503 NOT_CONNECTED after a short offer
 * timeout. The public
 * base URL is set, as production must. Test classes carrying only this annotation share one application context,
 * and so one login lockout: each test uses user names and remote addresses of its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "ringex.risk.aeron.embedded-driver=true",
    "ringex.risk.aeron.dir=/dev/shm/ringex-risk-web-${random.uuid}",
    "ringex.risk.streams.ingress-channel=aeron:ipc",
    "ringex.risk.streams.risk-channel=aeron:ipc",
    "ringex.risk.streams.market-data-channel=aeron:ipc",
    "ringex.risk.actions.offer-timeout=20ms",
    "ringex.risk.actions.admin-key-file=src/test/resources/admin-test.keys",
    "ringex.risk.http.public-base-url=" + RiskServiceOnAPort.BASE_URL})
@AutoConfigureMockMvc
@ActiveProfiles("demo")
public @interface RiskServiceOnAPort
{
    /** The configured public base URL. */
    String BASE_URL = "https://risk.example.test";
}
