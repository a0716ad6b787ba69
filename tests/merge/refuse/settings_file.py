"""A small Python file the refusal tests share: three definitions, each named once."""

SETTINGS = """\
def configure_logging(level):
    handler = make_handler()
    return handler


def load_settings(path):
    data = read_file(path)
    return data


def save_settings(path, data):
    write_file(path, data)
    return True
"""
