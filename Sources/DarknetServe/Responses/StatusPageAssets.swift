/// The status page's style sheet and script, inline so the binary serves the page alone.
enum StatusPageAssets {
    static let style = """
        body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 70em; }
        h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.4em; }
        .up, .down { font-size: 0.7em; padding: 0.1em 0.5em; border-radius: 0.3em; color: #fff; vertical-align: middle; }
        .up { background: #2a7d2e; } .down { background: #b03a2e; }
        table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
        code { font-size: 0.8em; color: #555; } .note { font-size: 0.85em; color: #666; }
        canvas { max-width: 100%; display: block; margin-top: 0.6em; }
        """

    /// Posts the form with `fetch`, draws the photo and each prediction's box (the label above it)
    /// on the canvas, and lists them. The canvas's `data-boxes` counts the boxes drawn.
    static let script = """
        const palette = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#f032e6', '#9a6324'];
        const form = document.getElementById('try');
        form.addEventListener('submit', async (event) => {
          event.preventDefault();
          const status = document.getElementById('result-status');
          const list = document.getElementById('detections');
          const file = form.image.files[0];
          if (!file) { status.textContent = 'choose a photo first'; return; }
          status.textContent = 'detecting…';
          list.replaceChildren();
          let reply;
          try {
            const response = await fetch(form.action, { method: 'POST', body: new FormData(form) });
            reply = await response.json();
          } catch (error) { status.textContent = 'request failed: ' + error; return; }
          if (!reply.success) { status.textContent = 'error ' + reply.code + ': ' + reply.error; return; }
          const image = await createImageBitmap(file, { imageOrientation: 'none' });
          const canvas = document.getElementById('canvas');
          canvas.width = image.width; canvas.height = image.height;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          const line = Math.max(2, Math.round(image.width / 250));
          context.lineWidth = line;
          context.font = (6 * line + 6) + 'px sans-serif';
          context.textBaseline = 'bottom';
          reply.predictions.forEach((p, i) => {
            const color = palette[i % palette.length];
            context.strokeStyle = color;
            context.strokeRect(p.x_min, p.y_min, p.x_max - p.x_min, p.y_max - p.y_min);
            const text = p.label + ' ' + p.confidence.toFixed(2);
            const width = context.measureText(text).width + 2 * line;
            context.fillStyle = color;
            context.fillRect(p.x_min - line / 2, p.y_min - 6 * line - 8, width, 6 * line + 8);
            context.fillStyle = '#fff';
            context.fillText(text, p.x_min + line, p.y_min - 2);
            const item = document.createElement('li');
            item.textContent = text + ' [' + [p.x_min, p.y_min, p.x_max, p.y_max].join(', ') + ']';
            item.style.color = color;
            list.appendChild(item);
          });
          canvas.dataset.boxes = String(reply.predictions.length);
          status.textContent = reply.count + ' detections, ' + reply.inferenceMs + ' ms inference, ' + reply.processMs + ' ms in the server';
        });
        """
}
