package dev.forge.memory.springai.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.forge.memory.CorruptEntryException;
import dev.forge.memory.InvalidEntryException;
import dev.forge.memory.Keys;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.AbstractMessage;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;

/**
 * The stored form of a conversation: one JSON document holding every message in full (type, text, metadata, media,
 * an assistant's tool calls, a tool's responses), written and read back so that the messages are equal to the ones
 * saved. The {@code messageType} metadata Spring AI adds to every message is left out: the message's constructor
 * puts it back.
 */
public final class MessageCodec {

    /** The value of the stored document's {@code format} field. */
    public static final String FORMAT = "forge-memory/spring-ai-chat";
    /** The version of the stored form; a newer one is refused rather than misread. */
    public static final int VERSION = 1;

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private MessageCodec() {
    }

    /**
     * The JSON text of a conversation.
     *
     * @throws InvalidEntryException for a message of an unknown kind or metadata that is not JSON
     */
    public static String write(String conversationId, List<Message> messages) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        root.put("conversation_id", conversationId);
        ArrayNode array = root.putArray("messages");
        for (int i = 0; i < messages.size(); i++) {
            array.add(message(messages.get(i), "message " + i + " of conversation '" + Keys.abbreviate(conversationId) + "'"));
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new InvalidEntryException("Conversation '" + Keys.abbreviate(conversationId) + "' cannot be written as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    private static ObjectNode message(Message message, String where) {
        ObjectNode node = JSON.createObjectNode();
        String type;
        if (message instanceof UserMessage) {
            type = "user";
        } else if (message instanceof AssistantMessage) {
            type = "assistant";
        } else if (message instanceof SystemMessage) {
            type = "system";
        } else if (message instanceof ToolResponseMessage) {
            type = "tool";
        } else {
            throw new InvalidEntryException("The " + where + " is a " + message.getClass().getName()
                    + "; only Spring AI's UserMessage, AssistantMessage, SystemMessage and ToolResponseMessage can be stored.");
        }
        node.put("type", type);
        if (message.getText() != null) {
            node.put("text", message.getText());
        }
        Map<String, Object> metadata = new HashMap<>(message.getMetadata());
        metadata.remove(AbstractMessage.MESSAGE_TYPE);
        ExactJson.write(JSON, node, "metadata", metadata, where);
        if (message instanceof UserMessage user && !user.getMedia().isEmpty()) {
            node.set("media", media(user.getMedia(), where));
        }
        if (message instanceof AssistantMessage assistant) {
            if (assistant.getMedia() != null && !assistant.getMedia().isEmpty()) {
                node.set("media", media(assistant.getMedia(), where));
            }
            ArrayNode calls = node.putArray("tool_calls");
            for (AssistantMessage.ToolCall call : assistant.getToolCalls()) {
                calls.addObject().put("id", call.id()).put("type", call.type()).put("name", call.name()).put("arguments", call.arguments());
            }
        }
        if (message instanceof ToolResponseMessage tool) {
            ArrayNode responses = node.putArray("responses");
            for (ToolResponseMessage.ToolResponse response : tool.getResponses()) {
                responses.addObject().put("id", response.id()).put("name", response.name()).put("response_data", response.responseData());
            }
        }
        return node;
    }

    private static ArrayNode media(List<Media> media, String where) {
        ArrayNode array = JSON.createArrayNode();
        for (Media item : media) {
            ObjectNode node = array.addObject();
            node.put("mime_type", item.getMimeType().toString());
            node.put("id", item.getId());
            node.put("name", item.getName());
            Object data = item.getData();
            if (data instanceof byte[] bytes) {
                node.put("data_base64", Base64.getEncoder().encodeToString(bytes));
            } else if (data instanceof String text) {
                node.put("data", text);
            } else {
                throw new InvalidEntryException("A media item of the " + where + " holds a " + data.getClass().getName()
                        + "; only bytes and URL strings can be stored.");
            }
        }
        return array;
    }

    /**
     * The messages of a stored conversation, in order.
     *
     * @param key the memory key, for messages
     * @throws CorruptEntryException if the text is not a conversation this version can read
     */
    public static List<Message> read(String key, String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw corrupt(key, "it is not JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (root == null || !FORMAT.equals(root.path("format").asText()) || !root.path("messages").isArray()) {
            throw corrupt(key, "it is not a stored Spring AI conversation (no format '" + FORMAT + "')", null);
        }
        int version = root.path("version").asInt();
        if (version != VERSION) {
            throw corrupt(key, "it was written in version " + version + " of the format; this version reads " + VERSION
                    + ". Use the forge-memory version that wrote it", null);
        }
        List<Message> messages = new ArrayList<>();
        try {
            for (JsonNode node : root.get("messages")) {
                messages.add(message(node));
            }
        } catch (RuntimeException e) {
            throw corrupt(key, "a message cannot be read (" + e.getMessage() + ")", e);
        }
        return messages;
    }

    /** The conversation id a stored conversation records. */
    public static String conversationId(String key, String text) {
        try {
            JsonNode id = JSON.readTree(text).path("conversation_id");
            if (id.isTextual()) {
                return id.asText();
            }
        } catch (JsonProcessingException e) {
            throw corrupt(key, "it is not JSON (" + e.getOriginalMessage() + ")", e);
        }
        throw corrupt(key, "it records no conversation id", null);
    }

    private static Message message(JsonNode node) {
        String text = node.hasNonNull("text") ? node.get("text").asText() : null;
        Map<String, Object> metadata = ExactJson.read(JSON, node, "metadata");
        String type = node.path("type").asText();
        return switch (type) {
            case "user" -> UserMessage.builder().text(text).media(media(node)).metadata(metadata).build();
            case "system" -> SystemMessage.builder().text(text).metadata(metadata).build();
            case "assistant" -> {
                List<AssistantMessage.ToolCall> calls = new ArrayList<>();
                for (JsonNode call : node.path("tool_calls")) {
                    calls.add(new AssistantMessage.ToolCall(textOrNull(call, "id"), textOrNull(call, "type"),
                            textOrNull(call, "name"), textOrNull(call, "arguments")));
                }
                yield AssistantMessage.builder().content(text).properties(metadata).toolCalls(calls).media(media(node)).build();
            }
            case "tool" -> {
                List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
                for (JsonNode response : node.path("responses")) {
                    responses.add(new ToolResponseMessage.ToolResponse(textOrNull(response, "id"), textOrNull(response, "name"),
                            textOrNull(response, "response_data")));
                }
                yield ToolResponseMessage.builder().responses(responses).metadata(metadata).build();
            }
            default -> throw new IllegalArgumentException("unknown message type '" + type + "'");
        };
    }

    private static List<Media> media(JsonNode node) {
        List<Media> media = new ArrayList<>();
        for (JsonNode item : node.path("media")) {
            Media.Builder builder = Media.builder().mimeType(MimeType.valueOf(item.get("mime_type").asText()))
                    .id(textOrNull(item, "id")).name(textOrNull(item, "name"));
            if (item.hasNonNull("data_base64")) {
                builder.data(Base64.getDecoder().decode(item.get("data_base64").asText()));
            } else {
                builder.data((Object) item.get("data").asText());
            }
            media.add(builder.build());
        }
        return media;
    }

    private static String textOrNull(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private static CorruptEntryException corrupt(String key, String problem, Throwable cause) {
        return new CorruptEntryException("The memory '" + Keys.abbreviate(key) + "' cannot be read as a conversation: "
                + problem + ".", cause);
    }
}
