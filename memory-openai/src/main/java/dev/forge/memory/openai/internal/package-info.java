/**
 * Implementation helpers shared by several packages of memory-api (the OpenAI-compatible HTTP clients). Not API:
 * may change in any release.
 */
package dev.forge.memory.openai.internal;
