from django.conf import settings


def test_it_reads_the_data_dir_from_the_environment():
    assert "memsync-tests-" in str(settings.DATA_DIR)


def test_it_uses_the_redis_the_run_provides():
    import redis

    assert redis.Redis.from_url(settings.REDIS_URL).ping()
