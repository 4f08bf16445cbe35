# syntax=docker/dockerfile:1
# Ringex risk service and dashboard (Spring Boot, risk/target/ringex-risk-*-exec.jar): reads the engine's risk and
# market-data streams, serves the dashboard, the REST API and /actuator/health on 8080, sends admin commands.
# Build from the repo root:  docker build -f docker/risk.Dockerfile -t ringex-risk .
# Users are NOT in the image: ringex.risk.security.users[n] with {bcrypt} hashes from the environment (compose.yml),
# or --spring.profiles.active=demo for the demo users. Its media driver is embedded
# (RINGEX_RISK_AERON_EMBEDDEDDRIVER=true below): see docs/docker.md, "Media driver".

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q package -DskipTests -pl risk -am \
 && mkdir -p /out \
 && cp risk/target/ringex-risk-*-exec.jar /out/ringex-risk.jar \
 && cp protocol/target/classes/ringex-jvm.flags /out/ringex-jvm.flags

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 ringex \
 && useradd --system --uid 10001 --gid ringex --home-dir /var/lib/ringex --create-home --shell /usr/sbin/nologin ringex
COPY --from=build /out/ /opt/ringex/
COPY docker/ringex-entrypoint.sh docker/http-healthcheck.sh /opt/ringex/bin/

# The jar's manifest carries Add-Exports/Add-Opens too; the entrypoint adds the whole flag list (with the -D flags).
ENV RINGEX_JAR=/opt/ringex/ringex-risk.jar \
    RINGEX_RISK_AERON_EMBEDDEDDRIVER=true \
    SERVER_PORT=8080
USER ringex
WORKDIR /var/lib/ringex
EXPOSE 8080/tcp
# UP only while the engine's EngineStatus keeps arriving (ringex.risk.engine.status-timeout)
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["/opt/ringex/bin/http-healthcheck.sh"]
ENTRYPOINT ["/opt/ringex/bin/ringex-entrypoint.sh"]
