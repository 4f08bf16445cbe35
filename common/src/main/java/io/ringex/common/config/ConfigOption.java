package io.ringex.common.config;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Documents a configuration key: placed on the {@code *_PROP_NAME} constant of a {@code Configuration} class, whose
 * {@code *_DEFAULT} constant (same stem) gives the default. {@link KnownKeys} finds the keys by it and
 * {@link ConfigurationReference} writes the reference table in docs/operations.md from it, so the two cannot drift.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface ConfigOption
{
    /**
     * @return what the key sets, one sentence, for the reference table.
     */
    String value();

    /**
     * @return the default as a reader sees it, when there is no {@code *_DEFAULT} constant or it is not the whole
     * story (a default derived from another key, or none); empty to use the constant.
     */
    String defaultText() default "";
}
