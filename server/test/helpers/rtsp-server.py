#!/usr/bin/python3
"""A camera on loopback for the video tests (docs/video.md, "Tests"): GStreamer's RTSP server
(Debian gir1.2-gst-rtsp-server-1.0) serving /cam1, a live test pattern in H.264 (x264, a key frame
every 25 frames at 25 fps) with a PCMA (G.711 A-law) audio track, as Chinese cameras send, over RTSP
with TCP interleaving and UDP. Usage: rtsp-server.py PORT [USER PASSWORD]; prints "ready" when serving."""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

Gst.init(None)
port = sys.argv[1]
server = GstRtspServer.RTSPServer.new()
server.set_address("127.0.0.1")
server.set_service(port)
factory = GstRtspServer.RTSPMediaFactory.new()
factory.set_launch(
    "( videotestsrc is-live=true pattern=smpte ! video/x-raw,width=640,height=360,framerate=25/1 "
    "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=25 bitrate=800 "
    "! video/x-h264,profile=baseline ! rtph264pay name=pay0 pt=96 config-interval=1 "
    "audiotestsrc is-live=true wave=sine ! audio/x-raw,rate=8000,channels=1 ! alawenc ! rtppcmapay name=pay1 pt=8 )"
)
factory.set_shared(True)
if len(sys.argv) >= 4:
    auth = GstRtspServer.RTSPAuth.new()
    token = GstRtspServer.RTSPToken.new()
    token.set_string(GstRtspServer.RTSP_TOKEN_MEDIA_FACTORY_ROLE, "user")
    auth.add_basic(GstRtspServer.RTSPAuth.make_basic(sys.argv[2], sys.argv[3]), token)
    server.set_auth(auth)
    perms = GstRtspServer.RTSPPermissions.new()
    perms.add_permission_for_role("user", "media.factory.access", True)
    perms.add_permission_for_role("user", "media.factory.construct", True)
    factory.set_permissions(perms)
server.get_mount_points().add_factory("/cam1", factory)
if server.attach(None) == 0:
    print("attach failed", flush=True)
    sys.exit(1)
loop = GLib.MainLoop()


def parent_gone(*_args):
    """The test process holds our stdin: when it ends (however it ends), so does this camera."""
    loop.quit()
    return False


GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_HUP | GLib.IO_IN | GLib.IO_ERR, parent_gone)
print("ready", flush=True)
loop.run()
