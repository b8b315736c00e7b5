package dev.forge.memory.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.forge.memory.MemoryEntry;
import dev.forge.memory.Scope;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The adapter's staleness table, at every boundary. */
class StalenessTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 2, 10);

    private static Staleness daysAgo(int days) {
        return Staleness.of(Optional.of(TODAY.minusDays(days)), TODAY);
    }

    @Test
    void the_staleness_table_at_its_boundaries() {
        assertThat(daysAgo(0)).isEqualTo(Staleness.FRESH);
        assertThat(daysAgo(30)).isEqualTo(Staleness.FRESH);
        assertThat(daysAgo(31)).isEqualTo(Staleness.AGING);
        assertThat(daysAgo(90)).isEqualTo(Staleness.AGING);
        assertThat(daysAgo(91)).isEqualTo(Staleness.STALE);
        assertThat(daysAgo(400)).isEqualTo(Staleness.STALE);
    }

    @Test
    void no_date_is_stale_and_a_future_date_is_fresh() {
        assertThat(Staleness.of(Optional.empty(), TODAY)).isEqualTo(Staleness.STALE);
        assertThat(daysAgo(-5)).isEqualTo(Staleness.FRESH);
        assertThat(Staleness.STALE.id()).isEqualTo("stale");
    }

    @Test
    void an_ordinary_memory_is_judged_by_its_updated_at_utc_date() {
        MemoryEntry entry = new MemoryEntry("notes", "v", Scope.PROJECT, List.of(), Map.of(),
                Instant.parse("2025-10-01T00:00:00Z"), Instant.parse("2025-11-11T23:59:00Z"), 2);
        assertThat(Staleness.daysSince(entry, TODAY)).isEqualTo(91);
        assertThat(Staleness.of(entry, TODAY)).isEqualTo(Staleness.STALE);
        assertThat(Staleness.of(entry, LocalDate.of(2025, 11, 12))).isEqualTo(Staleness.FRESH);
        assertThat(Staleness.of(entry, LocalDate.of(2026, 2, 9))).isEqualTo(Staleness.AGING);
    }
}
