pytest_plugins = [
    "tests.fixtures",
    "tests.support.celery_worker",
    "tests.support.messages_server",
    "tests.support.webhook_receiver",
]
