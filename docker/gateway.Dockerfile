# syntax=docker/dockerfile:1
# Ringex gateway (io.ringex.gateway.GatewayMain <config-file> ...): SBE clients over Aeron UDP and FIX 4.4 over TCP
# (Artio), in front of the engine.
# Build from the repo root:  docker build -f docker/gateway.Dockerfile -t ringex-gateway .
# NOTE: written against the gateway module as it is being merged (module path gateway/, main
# io.ringex.gateway.GatewayMain, keys ringex.gateway.*); it builds once that module is in the reactor.
# It runs its own embedded media driver and, for Artio, an Aeron Archive (ringex.gateway.embedded.driver=true in
# docker/config/gateway.properties): see docs/docker.md, "Media driver".

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# The module's jar and its runtime dependencies; not its test jar (the system tests' harness: test users and all).
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q package dependency:copy-dependencies -DskipTests -DincludeScope=runtime -pl gateway -am \
 && mkdir -p /out/lib \
 && cp gateway/target/dependency/*.jar /out/lib/ \
 && find gateway/target -maxdepth 1 -name 'ringex-gateway-*.jar' ! -name '*-tests.jar' -exec cp {} /out/lib/ \; \
 && cp protocol/target/classes/ringex-jvm.flags /out/ringex-jvm.flags

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 ringex \
 && useradd --system --uid 10001 --gid ringex --home-dir /var/lib/ringex --no-create-home --shell /usr/sbin/nologin ringex \
 && mkdir -p /var/lib/ringex/fix /var/lib/ringex/archive /etc/ringex \
 && chown -R ringex:ringex /var/lib/ringex
COPY --from=build /out/ /opt/ringex/
COPY docker/ringex-entrypoint.sh /opt/ringex/bin/
COPY docker/config/gateway.properties /etc/ringex/gateway.properties

# Users (ringex.gateway.user.<name>.*) are not in the image: mount a file of them and add it to RINGEX_CONFIG,
# e.g. RINGEX_CONFIG="/etc/ringex/gateway.properties /etc/ringex/gateway-users.properties" (docs/docker.md).
ENV RINGEX_MAIN=io.ringex.gateway.GatewayMain \
    RINGEX_CONFIG=/etc/ringex/gateway.properties
USER ringex
WORKDIR /var/lib/ringex
# fix/: Artio's session state (sequence numbers, message index); archive/: the embedded Aeron Archive Artio uses
VOLUME ["/var/lib/ringex"]
# FIX acceptor 9880/tcp; SBE client ingress 40200/udp
EXPOSE 9880/tcp 40200/udp
# FIX acceptor listening (bash /dev/tcp: no extra packages)
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/9880"]
ENTRYPOINT ["/opt/ringex/bin/ringex-entrypoint.sh"]
