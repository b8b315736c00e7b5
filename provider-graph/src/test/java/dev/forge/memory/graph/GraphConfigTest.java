package dev.forge.memory.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.forge.memory.ConfigurationException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.forge.memory.spi.ProviderConfig;
import dev.forge.memory.spi.Setting;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The graph provider's settings: defaults, and values refused before any connection is tried. */
class GraphConfigTest {

    private static GraphConfig bind(Map<String, ?> values) {
        return ProviderConfig.of(values).bind(GraphConfig.class);
    }

    @Test
    void defaults_are_a_local_server_and_bounded_timeouts() {
        GraphConfig config = bind(Map.of());
        assertThat(config.url()).isEqualTo(GraphConfig.DEFAULT_URL);
        assertThat(config.connectTimeout().duration()).isPositive();
        assertThat(config.queryTimeout().duration()).isPositive();
        assertThat(config.retryTime()).isEqualTo(GraphConfig.DEFAULT_RETRY_TIME);
    }

    @Test
    void retry_time_may_be_zero_and_is_refused_when_negative() {
        assertThat(bind(Map.of("retry_time", "0")).retryTime().duration()).isZero();
        assertThat(bind(Map.of("retry_time", "2s")).retryTime().toMillis()).isEqualTo(2000);
        assertThatThrownBy(() -> bind(Map.of("retry_time", "-1s"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("retry_time");
    }

    @Test
    void a_url_with_credentials_is_refused_without_echoing_them() {
        assertThatThrownBy(() -> bind(Map.of("url", "bolt://neo4j:s3cr3t@localhost:7687")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'username'").hasMessageNotContaining("s3cr3t");
    }

    @Test
    void other_schemes_unknown_keys_and_bad_values_are_refused() {
        assertThatThrownBy(() -> bind(Map.of("url", "http://localhost:7474"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("Bolt");
        assertThatThrownBy(() -> bind(Map.of("urll", "bolt://localhost"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("url");
        assertThatThrownBy(() -> bind(Map.of("pool_size", 0))).isInstanceOf(ConfigurationException.class);
        assertThatThrownBy(() -> bind(Map.of("connect_timeout", "0"))).isInstanceOf(ConfigurationException.class);
    }

    @Test
    void hybrid_fusion_defaults_to_that_of_the_other_providers_and_takes_their_settings() {
        GraphConfig defaults = bind(Map.of());
        assertThat(defaults.fusion()).isEqualTo(dev.forge.memory.support.FusionMethod.DEFAULT);
        assertThat(defaults.rrfK()).isEqualTo(60);
        assertThat(defaults.keywordWeight()).isEqualTo(1.0);
        GraphConfig rrf = bind(Map.of("fusion", "RRF", "rrf_k", 20, "keyword_weight", 0.5));
        assertThat(rrf.fusion()).isEqualTo(dev.forge.memory.support.FusionMethod.RRF);
        assertThat(rrf.rrfK()).isEqualTo(20);
        assertThat(rrf.keywordWeight()).isEqualTo(0.5);
        assertThatThrownBy(() -> bind(Map.of("fusion", "combsum"))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("use max_zscore, clipped_zscore, zscore or rrf");
        assertThatThrownBy(() -> bind(Map.of("rrf_k", 0))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'rrf_k' must be at least 1");
        assertThatThrownBy(() -> bind(Map.of("keyword_weight", 1.5))).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'keyword_weight' must be more than 0 and at most 1");
    }

    @Test
    void the_factory_describes_every_key_and_the_embedding_block_and_the_described_defaults_bind_to_the_defaults() {
        List<Setting> settings = new GraphMemoryProviderFactory().settings();
        List<String> keys = Arrays.stream(GraphConfig.class.getRecordComponents())
                .map(c -> new PropertyNamingStrategies.SnakeCaseStrategy().translate(c.getName())).toList();
        assertThat(settings).extracting(Setting::name).containsExactlyInAnyOrderElementsOf(
                java.util.stream.Stream.concat(keys.stream(), java.util.stream.Stream.of(GraphConfig.EMBEDDING)).toList());
        Map<String, Object> described = new LinkedHashMap<>();
        settings.stream().filter(s -> !s.name().equals(GraphConfig.EMBEDDING))
                .forEach(s -> described.put(s.name(), s.defaultValue().replaceAll("^\"(.*)\"$", "$1")));
        assertThat(bind(described)).isEqualTo(GraphConfig.defaults());
    }
}
