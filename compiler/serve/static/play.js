// rulecraft serve: the page shows the HTML the server sends for this seat, and sends back
// the message of each button. The seat's token is the page's own address.
"use strict";
(function () {
  const view = document.getElementById("view");
  const error = document.getElementById("error");
  const base = location.pathname.replace(/\/$/, "");
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let socket = null;

  function show(message) {
    if (message.html !== undefined) {
      view.innerHTML = message.html;
      document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1);
    }
    if (message.error) {
      error.textContent = message.error;
      error.hidden = false;
    } else {
      error.hidden = true;
    }
  }

  function connect() {
    socket = new WebSocket(scheme + location.host + base + "/ws");
    socket.onmessage = (event) => show(JSON.parse(event.data));
    socket.onclose = () => {
      error.textContent = "Disconnected from the game server.";
      error.hidden = false;
    };
  }

  view.addEventListener("click", (event) => {
    const target = event.target.closest("[data-send]");
    if (target && socket && socket.readyState === WebSocket.OPEN) {
      socket.send(target.dataset.send);
    }
  });
  view.addEventListener("change", (event) => {
    const input = event.target;
    if (input.type === "file" && input.files.length) {
      input.files[0].text().then((text) => socket.send(JSON.stringify({type: "load", text})));
    }
  });
  connect();
})();
