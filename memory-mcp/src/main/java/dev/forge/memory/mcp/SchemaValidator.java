package dev.forge.memory.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The SDK's JSON Schema check (tool arguments on the server, structured results on a client) on the json-schema-validator
 * the build manages. The SDK's Jackson 2 binding brings a validator written for another major version of that library,
 * so a server or client of this project is given this one ({@code jsonSchemaValidator(new SchemaValidator())}).
 */
public final class SchemaValidator implements JsonSchemaValidator {

    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private final Map<Map<String, Object>, JsonSchema> schemas = new ConcurrentHashMap<>();

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        JsonSchema compiled = schemas.computeIfAbsent(Map.copyOf(schema), s -> factory.getSchema(mapper.valueToTree(s)));
        JsonNode content = mapper.valueToTree(structuredContent);
        Set<ValidationMessage> problems = compiled.validate(content);
        if (!problems.isEmpty()) {
            return ValidationResponse.asInvalid(problems.stream().map(ValidationMessage::getMessage).sorted()
                    .collect(Collectors.joining("; ")));
        }
        try {
            return ValidationResponse.asValid(mapper.writeValueAsString(content));
        } catch (JsonProcessingException e) {
            return ValidationResponse.asInvalid("The content cannot be written as JSON: " + e.getOriginalMessage());
        }
    }
}
