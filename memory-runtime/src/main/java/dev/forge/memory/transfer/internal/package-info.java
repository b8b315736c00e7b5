/** The streaming readers and writers of the transfer format; not an API. */
package dev.forge.memory.transfer.internal;
