/**
 * Choosing and opening a provider from configuration: {@link dev.forge.memory.config.Memories#open} reads
 * {@code .forge/config.yaml} of a project, the user's {@code ~/.forge/config.yaml} and runtime overrides, in
 * that order of precedence, and opens the provider they select.
 */
package dev.forge.memory.config;
