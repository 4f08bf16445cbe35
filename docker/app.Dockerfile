# syntax=docker/dockerfile:1
# Ringex all-in-one demo venue (app/target/ringex.jar): embedded media driver, engine, gateway and the risk
# dashboard in one JVM over IPC, demo instruments and accounts on a fresh data directory.
# Build and run from the repo root:
#   docker build -f docker/app.Dockerfile -t ringex .
#   docker run --rm --shm-size=512m -p 8080:8080 -v ringex-data:/var/lib/ringex ringex [--data=/var/lib/ringex --demo-flow]
# It always runs the dashboard's demo profile (viewer/viewer, officer/officer): a demo, not a deployment.

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q package -DskipTests -pl app -am \
 && mkdir -p /out \
 && cp app/target/ringex.jar /out/ringex.jar \
 && cp protocol/target/classes/ringex-jvm.flags /out/ringex-jvm.flags

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 ringex \
 && useradd --system --uid 10001 --gid ringex --home-dir /var/lib/ringex --no-create-home --shell /usr/sbin/nologin ringex \
 && mkdir -p /var/lib/ringex \
 && chown -R ringex:ringex /var/lib/ringex
COPY --from=build /out/ /opt/ringex/
COPY docker/ringex-entrypoint.sh docker/http-healthcheck.sh /opt/ringex/bin/

ENV RINGEX_JAR=/opt/ringex/ringex.jar \
    SERVER_PORT=8080
USER ringex
WORKDIR /var/lib/ringex
# journal/, snapshots/ and FIX session state of the venue (--data)
VOLUME ["/var/lib/ringex"]
# dashboard 8080/tcp; FIX 9880/tcp and SBE clients 40200/udp once the gateway is in the all-in-one
EXPOSE 8080/tcp 9880/tcp 40200/udp
HEALTHCHECK --interval=10s --timeout=5s --start-period=90s --retries=3 CMD ["/opt/ringex/bin/http-healthcheck.sh"]
ENTRYPOINT ["/opt/ringex/bin/ringex-entrypoint.sh"]
CMD ["--data=/var/lib/ringex"]
