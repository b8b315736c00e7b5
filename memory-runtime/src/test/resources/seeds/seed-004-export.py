# Runs seed 004's own MemoryEntry and export_memory code (section "Migration Between Providers") over the seed's
# example entries (sections "Memory Scopes" and "Memory Patterns"), with a fixed clock.
import json, sys
from enum import Enum
from dataclasses import dataclass, asdict
from typing import List, Dict, Any

class Scope(Enum):
    SESSION = "session"
    PROJECT = "project"
    GLOBAL = "global"

@dataclass
class MemoryEntry:
    key: str
    value: str
    scope: Scope
    timestamp: int
    tags: List[str]
    metadata: Dict[str, Any]

T = 1732700000
entries = {
    Scope.SESSION: [MemoryEntry("current_task", "Implementing user authentication", Scope.SESSION, T + 30, [], {})],
    Scope.PROJECT: [
        MemoryEntry("decision:auth-strategy", "Using JWT with refresh tokens because...", Scope.PROJECT, T + 10,
                    ["decision", "authentication"], {}),
        MemoryEntry("decision:auth", "Use JWT", Scope.PROJECT, T + 20, [], {}),
        MemoryEntry("implementation:jwt-service", "Created", Scope.PROJECT, T + 21, [], {}),
    ],
    Scope.GLOBAL: [
        MemoryEntry("learning:async-file-io", "Always use aiofiles for async file operations. Regular open() blocks.",
                    Scope.GLOBAL, T, ["python", "async", "io"], {}),
        MemoryEntry("learning:file-operations", "aiofiles keeps the event loop free",
                    Scope.GLOBAL, T + 5, ["learning", "file operations"], {"context": "reviewing the FileProvider"}),
    ],
}
export_data = {"version": "1.0", "timestamp": T + 60, "scopes": {}}
for scope in Scope:
    export_data["scopes"][scope.value] = [asdict(entry) for entry in entries[scope]]
mode = sys.argv[1]
default = (lambda o: o.value) if mode == "value" else str
sys.stdout.write(json.dumps(export_data, indent=2, default=default))
