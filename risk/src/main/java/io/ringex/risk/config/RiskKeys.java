package io.ringex.risk.config;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Refuses, before any bean is made, a {@code ringex.risk.*} key that binds to nothing in {@link RiskProperties}
 * ({@code ringex.risk.live.push-intervall}), from any source: application.yml, the command line, system properties
 * and environment variables ({@code RINGEX_RISK_STREAMS_INGRESCHANNEL}). A typo would otherwise be passed over and the
 * service would run on the default. Spring's own check ({@code ignoreUnknownFields = false} on {@link RiskProperties})
 * covers files and the command line only: it takes system properties and environment variables for other programs'.
 * <p>
 * The same binding refuses a value that does not convert ({@code ringex.risk.live.push-interval=fast}) or that
 * {@link RiskProperties}' records refuse, naming the key. Spring's failure analysis prints the key; the exception is a
 * {@link org.springframework.boot.context.properties.bind.BindException} whose message names it too.
 * <p>
 * Thread safety: stateless; runs once, at start-up.
 */
public final class RiskKeys implements BeanFactoryPostProcessor, EnvironmentAware
{
    /** The root of the keys. */
    public static final String PREFIX = "ringex.risk";

    private ConfigurableEnvironment environment;

    /**
     * Bind {@link RiskProperties} from every source of an environment, refusing what binds to nothing.
     *
     * @param environment the application's environment (or one made of the system properties, the environment
     *                    variables and the command line, as the all-in-one checks before it starts anything).
     * @return the properties.
     * @throws org.springframework.boot.context.properties.bind.BindException naming the first unknown key (its
     *         cause, an {@code UnboundConfigurationPropertiesException}, names them all) or the key whose value does
     *         not bind.
     */
    public static RiskProperties check(final Environment environment)
    {
        return Binder.get(environment).bindOrCreate(PREFIX, Bindable.of(RiskProperties.class),
            new NoUnboundElementsBindHandler(BindHandler.DEFAULT, (source) -> true));
    }

    /**
     * @param environment the application's environment.
     */
    public void setEnvironment(final Environment environment)
    {
        this.environment = (ConfigurableEnvironment)environment;
    }

    /**
     * {@inheritDoc}
     */
    public void postProcessBeanFactory(final ConfigurableListableBeanFactory beanFactory)
    {
        check(environment);
    }
}
