// libmosquitto (Debian package libmosquitto-dev), the Eclipse Mosquitto MQTT client library.
#pragma once
#include <mosquitto.h>
