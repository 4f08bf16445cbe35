package io.ringex.risk;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The risk service: a Spring Boot application around a plain Agrona agent that reads the engine's streams.
 */
@SpringBootApplication
public class RiskServiceApplication
{
    /**
     * Start the service.
     *
     * @param args command-line arguments, passed to Spring.
     */
    public static void main(final String[] args)
    {
        SpringApplication.run(RiskServiceApplication.class, args);
    }
}
