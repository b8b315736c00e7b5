package dev.forge.memory.transfer.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import dev.forge.memory.Scope;
import dev.forge.memory.transfer.TransferFormat;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Optional;

/**
 * Writes the format by streaming. Entries must come grouped by scope in the order SESSION, PROJECT, GLOBAL, and
 * relations after every entry, as {@link ProviderRecords} reads them.
 */
public final class ExportWriter implements Closeable {

    private final JsonGenerator out;
    private final TransferFormat format;
    private Scope openScope;
    private boolean scopesOpen;
    private boolean relationsOpen;

    /** Starts a UTF-8 document on {@code stream} (flushed, and left open by {@link #close()}) with its header. */
    public ExportWriter(OutputStream stream, TransferFormat format, Instant exportedAt, Optional<String> project) throws IOException {
        this(Records.MAPPER.getFactory().createGenerator(stream, JsonEncoding.UTF8), format, exportedAt, project);
    }

    /** Starts a document on {@code writer} (flushed, and left open by {@link #close()}) with its header. */
    public ExportWriter(java.io.Writer writer, TransferFormat format, Instant exportedAt, Optional<String> project) throws IOException {
        this(Records.MAPPER.getFactory().createGenerator(writer), format, exportedAt, project);
    }

    private ExportWriter(JsonGenerator generator, TransferFormat format, Instant exportedAt, Optional<String> project) throws IOException {
        this.format = format;
        this.out = generator;
        out.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        // close() must not end open arrays and objects by itself: an abandoned export has to stay visibly unfinished.
        out.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
        if (format == TransferFormat.JSON) {
            out.setPrettyPrinter(new DefaultPrettyPrinter());
        } else {
            out.setRootValueSeparator(null);
        }
        out.writeStartObject();
        out.writeStringField("format", Records.FORMAT);
        out.writeStringField("version", Records.VERSION);
        out.writeStringField("exported_at", Records.time(exportedAt));
        if (project.isPresent()) {
            out.writeStringField("project", project.get());
        } else {
            out.writeNullField("project");
        }
        if (format == TransferFormat.JSONL) {
            out.writeEndObject();
            newline();
        } else {
            out.writeObjectFieldStart("scopes");
            scopesOpen = true;
        }
    }

    /** Writes an entry. */
    public void entry(Records.Entry entry) throws IOException {
        if (format == TransferFormat.JSONL) {
            Records.writeEntry(out, entry, true);
            newline();
            return;
        }
        Scope scope = entry.current().scope();
        if (relationsOpen || !scopesOpen || (openScope != null && scope.compareTo(openScope) < 0)) {
            throw new IllegalStateException("entries come grouped by scope, before the relations");
        }
        if (scope != openScope) {
            if (openScope != null) {
                out.writeEndArray();
            }
            out.writeArrayFieldStart(scope.id());
            openScope = scope;
        }
        Records.writeEntry(out, entry, false);
    }

    /** Writes a relation. */
    public void relation(Records.Relation relation) throws IOException {
        if (format == TransferFormat.JSONL) {
            Records.writeRelation(out, relation, true);
            newline();
            return;
        }
        openRelations();
        Records.writeRelation(out, relation, false);
    }

    private void openRelations() throws IOException {
        if (relationsOpen) {
            return;
        }
        closeScopes();
        out.writeArrayFieldStart("relations");
        relationsOpen = true;
    }

    private void closeScopes() throws IOException {
        if (scopesOpen) {
            if (openScope != null) {
                out.writeEndArray();
            }
            out.writeEndObject();
            scopesOpen = false;
        }
    }

    private void newline() throws IOException {
        out.writeRaw('\n');
    }

    /**
     * Flushes what was written without ending the document, after a failure: a JSON document is then visibly
     * truncated (an import refuses it) rather than a complete document missing entries. The stream stays open.
     */
    public void abandon() throws IOException {
        out.flush();
        out.close();
    }

    /** Ends the document and flushes it; the stream stays open. */
    @Override
    public void close() throws IOException {
        if (format == TransferFormat.JSON) {
            openRelations();
            out.writeEndArray();
            out.writeEndObject();
            out.writeRaw('\n');
        }
        out.flush();
        out.close();
    }
}
