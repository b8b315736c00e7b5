forge init --memory-provider vector
forge session start --memory-config memory.yaml
