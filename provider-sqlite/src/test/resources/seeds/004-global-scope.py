# Store learning
await memory.set(
    key="learning:async-file-io",
    value="Always use aiofiles for async file operations. Regular open() blocks.",
    scope=Scope.GLOBAL,
    tags=["python", "async", "io"]
)

# Search across all projects
learnings = await memory.search(
    semantic="file operations async python",
    scope=Scope.GLOBAL
)
