/**
 * Helpers for providers that keep their memories in files: atomic writes with fsync, private permissions, safe
 * tree deletion, and a store lock that works across threads and processes.
 */
package dev.forge.memory.support.files;
