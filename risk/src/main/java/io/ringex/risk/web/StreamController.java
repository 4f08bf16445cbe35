package io.ringex.risk.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** GET /api/stream: Server-Sent Events with the dashboard's state, at most five a second. */
@RestController
public class StreamController
{
    private final LiveUpdates live;

    /**
     * @param live the broadcaster.
     */
    public StreamController(final LiveUpdates live)
    {
        this.live = live;
    }

    /** @return the stream; each event is named {@code snapshot} and carries JSON. */
    @GetMapping(path = "/api/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter stream()
    {
        return live.subscribe();
    }
}
