package io.ringex.risk.web;

import java.util.List;

import org.springdoc.core.properties.SwaggerUiConfigProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import io.ringex.risk.config.RiskProperties;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.servers.Server;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/**
 * The HTTP side that is not about users: how big a request may be, how strictly JSON is read, and which URL the
 * OpenAPI document names. The service never builds a URL from a request's Host or X-Forwarded-* headers: redirects
 * are relative ({@code server.tomcat.use-relative-redirects}), forwarded headers are ignored
 * ({@code server.forward-headers-strategy: none}), and the OpenAPI server and Swagger UI's OAuth2 redirect URL come
 * from {@code ringex.risk.http.public-base-url}.
 */
@Configuration(proxyBeanMethods = false)
public class HttpConfiguration
{
    /**
     * @param properties {@code ringex.risk.http.max-request-body}.
     * @return the body limit, ahead of Spring Security's filters.
     */
    @Bean
    public FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimit(final RiskProperties properties)
    {
        final FilterRegistrationBean<RequestBodyLimitFilter> registration = new FilterRegistrationBean<>(
            new RequestBodyLimitFilter(properties.http().maxRequestBody().toBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        registration.setName("requestBodyLimit");
        return registration;
    }

    /**
     * @return browsers that ask for {@code /favicon.ico} unbidden (Swagger UI, the JSON views) get the dashboard's
     *         icon rather than a 404 in their console.
     */
    @Bean
    public WebMvcConfigurer faviconRedirect()
    {
        return new WebMvcConfigurer()
        {
            @Override
            public void addViewControllers(final ViewControllerRegistry registry)
            {
                registry.addRedirectViewController("/favicon.ico", "/favicon.svg");
            }
        };
    }

    /**
     * Ids, quantities and flags are exactly what JSON says: no float to integer ({@code 1004.7} is not account 1004),
     * no string to number ({@code "1004"}), no number or string to boolean, no number to string (money is decimal
     * text, so {@code 0.1} as a JSON number would already have been through binary floating point), no unknown
     * fields (a misspelt {@code acountId} would otherwise leave the account 0), and no key given twice
     * ({@code {"accountId":1004,"accountId":1005}} would otherwise act on 1005).
     *
     * @return the customizer of Boot's JSON mapper, used by the MVC message converter.
     */
    @Bean
    public JsonMapperBuilderCustomizer strictJson()
    {
        return builder -> builder
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Integer, c -> c
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Boolean, c -> c
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
            .withCoercionConfig(LogicalType.Textual, c -> c
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    /**
     * @param properties {@code ringex.risk.http.public-base-url}.
     * @return the OpenAPI document's head: its one server is the configured public base URL, or {@code /}
     *         (relative to where the document was fetched), never the caller's Host header.
     */
    @Bean
    public OpenAPI riskOpenApi(final RiskProperties properties)
    {
        final String base = properties.http().publicBaseUrl();
        return new OpenAPI()
            .info(new Info().title("Ringex risk service").description("Read model, admin actions and live " +
                "stream of the Ringex risk dashboard (docs/risk-api.md)"))
            .servers(List.of(new Server()
                .url(base.isEmpty() ? "/" : base)
                .description(base.isEmpty() ? "this service (ringex.risk.http.public-base-url is not set)" :
                    "ringex.risk.http.public-base-url")));
    }

    /**
     * Swagger UI's OAuth2 redirect URL (in {@code /v3/api-docs/swagger-config}): springdoc builds it from the request's
     * Host header unless it is configured as an absolute URL. The service has no OAuth2, so the URL is never followed;
     * it is fixed all the same so that no answer carries a caller's Host: under the public base URL, or
     * {@code http://localhost} when none is configured.
     *
     * @param swaggerUi  springdoc's Swagger UI settings, when Swagger UI is on the class path.
     * @param properties {@code ringex.risk.http.public-base-url}.
     * @return the step that fixes it once every bean exists.
     */
    @Bean
    public SmartInitializingSingleton fixedSwaggerUiRedirect(
        final ObjectProvider<SwaggerUiConfigProperties> swaggerUi,
        final RiskProperties properties)
    {
        final String base = properties.http().publicBaseUrl();
        final String redirect = (base.isEmpty() ? "http://localhost" : base) + "/swagger-ui/oauth2-redirect.html";
        return () -> swaggerUi.ifAvailable(ui -> ui.setOauth2RedirectUrl(redirect));
    }
}
