# syntax=docker/dockerfile:1
# Ringex engine node (io.ringex.engine.node.EngineMain): a single node or a cluster member, by its properties file.
# Build from the repo root:  docker build -f docker/engine.Dockerfile -t ringex-engine .
# It runs its own embedded media driver (ringex.engine.aeron.embedded=true in docker/config/engine-*.properties):
# see docs/docker.md, "Media driver".

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
# package (as everywhere) plus the module's runtime dependencies copied next to it, in the same reactor run so the
# sibling modules resolve to the jars just built; not the module's test jar (the tests' harness). The JVM flag lists
# come out of the build, never re-typed (the engine's own, its collector, is picked up by the entrypoint because it
# is there).
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q package dependency:copy-dependencies -DskipTests -DincludeScope=runtime -pl engine -am \
 && mkdir -p /out/lib \
 && cp engine/target/dependency/*.jar /out/lib/ \
 && find engine/target -maxdepth 1 -name 'ringex-engine-*.jar' ! -name '*-tests.jar' -exec cp {} /out/lib/ \; \
 && cp protocol/target/classes/ringex-jvm.flags /out/ringex-jvm.flags \
 && cp protocol/target/classes/ringex-engine-jvm.flags /out/ringex-engine-jvm.flags

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 ringex \
 && useradd --system --uid 10001 --gid ringex --home-dir /var/lib/ringex --no-create-home --shell /usr/sbin/nologin ringex \
 && mkdir -p /var/lib/ringex/journal /var/lib/ringex/snapshots /etc/ringex \
 && chown -R ringex:ringex /var/lib/ringex
COPY --from=build /out/ /opt/ringex/
COPY docker/ringex-entrypoint.sh docker/engine-healthcheck.sh /opt/ringex/bin/
# a single node by default; compose mounts engine-member-N.properties over it
COPY docker/config/engine-single.properties /etc/ringex/engine.properties

ENV RINGEX_MAIN=io.ringex.engine.node.EngineMain \
    RINGEX_CONFIG=/etc/ringex/engine.properties \
    RINGEX_DATA=/var/lib/ringex
USER ringex
WORKDIR /var/lib/ringex
# journal/ (Chronicle Queue), snapshots/ and counters.dat: one volume, so a journal and its snapshots move together
VOLUME ["/var/lib/ringex"]
# ingress 40100, outbound MDC control 40101; a cluster member's own traffic on 9000-9004 (docker/compose.yml)
EXPOSE 40100/udp 40101/udp 9000-9004/udp
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["/opt/ringex/bin/engine-healthcheck.sh"]
ENTRYPOINT ["/opt/ringex/bin/ringex-entrypoint.sh"]
