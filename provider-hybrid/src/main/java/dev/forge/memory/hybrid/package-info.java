/**
 * The {@code hybrid} provider: a router that puts a Caffeine cache in front of a storage provider and keeps optional
 * search and relationships providers in step with it through a durable outbox.
 */
package dev.forge.memory.hybrid;
