"""What the benchmark scripts share: the line that names the machine."""
import os
import platform


def machine():
    """The CPU's model name and the number of cores."""
    model = platform.machine()
    if os.path.exists("/proc/cpuinfo"):
        names = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")]
        model = names[0] if names else model
    return f"{model}, {os.cpu_count()} cores"
