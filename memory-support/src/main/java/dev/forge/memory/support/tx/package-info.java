/**
 * The optimistic transaction every provider of this repository uses: reads recorded with the revision seen, writes
 * buffered, revisions checked again at commit. A provider supplies a {@link dev.forge.memory.support.tx.TransactionBackend}.
 */
package dev.forge.memory.support.tx;
