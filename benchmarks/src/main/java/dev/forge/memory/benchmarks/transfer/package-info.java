/**
 * Export and import of a large sqlite store in a small heap: forge-memory's {@code Exporter} and {@code Importer} beside
 * raw Jackson streaming over plain JDBC on the same records, with the peak RSS of each side's JVM.
 */
package dev.forge.memory.benchmarks.transfer;
