# Store with automatic embedding
await memory.set(
    key="pattern:async-file-io",
    value="Always use aiofiles for async file operations...",
    scope=Scope.GLOBAL
)

# Semantic search
results = await memory.search(
    semantic="How do I do async file operations in Python?",
    scope=Scope.GLOBAL,
    limit=5,
    threshold=0.8
)

for entry, score in results:
    print(f"[{score:.2f}] {entry.key}: {entry.value}")
