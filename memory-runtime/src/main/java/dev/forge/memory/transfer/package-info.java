/**
 * Export, import and migration of memories between any two providers, in the portable forge-memory format
 * ({@code docs/export-format.md}): JSON documents and JSON Lines streams, read and written by streaming.
 */
package dev.forge.memory.transfer;
