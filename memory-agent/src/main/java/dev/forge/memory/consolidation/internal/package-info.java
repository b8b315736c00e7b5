/** Building, checking and applying consolidation plans. Not API. */
package dev.forge.memory.consolidation.internal;
