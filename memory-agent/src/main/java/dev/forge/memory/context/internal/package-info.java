/** The page layout behind {@link dev.forge.memory.context.ContextLoader}. Not API. */
package dev.forge.memory.context.internal;
