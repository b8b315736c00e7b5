/** Implementation of the Spring AI adapter: conversation keys, the stored message format, filter mapping. Not API. */
package dev.forge.memory.springai.internal;
