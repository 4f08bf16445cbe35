package io.ringex.risk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.ringex.testing.ProjectRoot;
import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;

/**
 * Every {@code ringex.risk.*} configuration the project ships binds to {@link RiskProperties} with no key left over
 * ({@link RiskKeys}): the service's application.yml, the demo profile, and the risk service's environment variables
 * in docker/compose.yml. A typo'd key there would otherwise only show when someone starts the service.
 */
class ShippedRiskConfigurationTest
{
    @Test
    void theApplicationYmlAndTheDemoProfileBind() throws IOException
    {
        final StandardEnvironment environment = emptyEnvironment();
        for (final String file : new String[]{ "application-demo.yml", "application.yml" })
        {
            for (final PropertySource<?> source : new YamlPropertySourceLoader().load(file,
                new ClassPathResource(file)))
            {
                environment.getPropertySources().addLast(source);
            }
        }
        final RiskProperties properties = RiskKeys.check(environment);
        assertEquals(3, properties.security().users().size(), "the demo profile's users");
        assertEquals(1001, properties.streams().ingressStreamId());
        assertEquals(List.of(new EngineEndpoints("streams", RiskProperties.ENGINE_INGRESS, 1001,
            RiskProperties.ENGINE_OUTBOUND, 1004, RiskProperties.ENGINE_OUTBOUND, 1003, RiskProperties.ENGINE_OUTBOUND,
            1002)), EngineEndpoints.of(properties), "one local engine, as docs/architecture.md places it");
    }

    @Test
    void theComposeVenuesRiskServiceEnvironmentBinds() throws IOException
    {
        final Path compose = ProjectRoot.find().resolve("docker/compose.yml");
        final String prefix = "services.risk.environment.";
        final Map<String, Object> variables = new HashMap<>();
        for (final PropertySource<?> source : new YamlPropertySourceLoader().load("compose",
            new FileSystemResource(compose)))
        {
            for (final String name : ((EnumerablePropertySource<?>)source).getPropertyNames())
            {
                if (name.startsWith(prefix + "RINGEX_RISK_"))
                {
                    variables.put(name.substring(prefix.length()), String.valueOf(source.getProperty(name)));
                }
            }
        }
        assertFalse(variables.isEmpty(), "no RINGEX_RISK_* variable in " + compose);
        final StandardEnvironment environment = emptyEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            variables));
        final RiskProperties properties = RiskKeys.check(environment);
        assertEquals(3, EngineEndpoints.of(properties).size(), "the compose venue's dashboard follows the three " +
            "members of its engine cluster");
        assertEquals(List.of("RISK_OFFICER"), properties.security().users().get(0).roles());
    }

    private static StandardEnvironment emptyEnvironment()
    {
        final StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
            new MapPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of()));
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
            new MapPropertySource(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, Map.of()));
        return environment;
    }
}
