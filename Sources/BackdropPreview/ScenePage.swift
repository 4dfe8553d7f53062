import Backdrop
import Foundation

/// The preview's scene mode (`/scenes`): a whole screen as `backdrop render --scene` draws it and as `backdrop
/// estimate --scene` prices it, side by side. Pick a built-in scene or upload a JSON one, a device and an overlay
/// (Instruments' colour debug options), the first frame or the steady one; the table prices the scene on every
/// device (fps, GPU %, offscreen passes, frame ms), the picked device's row marked. The state is the URL's query,
/// with the API's parameter names. One static page, nothing fetched from the network.
enum ScenePage {
    /// The page, with the scenes, devices and overlays it offers written in.
    static var html: String {
        let config: [String: Any] = [
            "scenes": BuiltInScenes.names, "devices": Device.all.map { ["id": $0.id, "name": $0.name] },
            "overlays": SceneOverlay.allCases.map(\.rawValue),
        ]
        let json = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data("{}".utf8)
        return template.replacingOccurrences(of: "__CONFIG__", with: String(decoding: json, as: UTF8.self))
    }

    static let template = #"""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Backdrop preview: scenes</title>
        <style>
        body{font-family:Helvetica,Arial,sans-serif;margin:16px;color:#222;display:flex;gap:20px}
        #screen{max-height:92vh;max-width:55vw;border:1px solid #ccc;align-self:flex-start}
        #side{width:460px;font-size:13px}h2{margin:0 0 8px}label{display:block;margin:4px 0}
        table{border-collapse:collapse;font-size:12px;width:100%}td,th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left}
        tr.picked{background:#eaf2fb}#error{color:#c0392b}#command{width:100%;font-family:monospace;font-size:11px}
        </style></head>
        <body><img id="screen" alt="the scene as drawn">
        <div id="side"><h2>Backdrop preview: scenes</h2><p><a href="/">the effect over a picture</a></p>
        <label>scene <select id="scene"></select></label>
        <label>or upload a scene file <input id="upload" type="file" accept="application/json,.json"></label>
        <label>device <select id="device"></select></label>
        <label>overlay <select id="show"><option value="">none</option></select></label>
        <label><input id="steady" type="checkbox"> steady frame (rasterized layers from the cache)</label>
        <input id="command" readonly><p id="error"></p>
        <table id="all"></table></div>
        <script>
        const CONFIG=__CONFIG__, $=id=>document.getElementById(id);
        addEventListener('error',e=>document.body.dataset.error=String(e.message));
        addEventListener('unhandledrejection',e=>document.body.dataset.error=String(e.reason));
        const state={scene:CONFIG.scenes[0],device:'iphone-5',show:'',steady:''};
        let token='';
        CONFIG.scenes.forEach(s=>$('scene').add(new Option(s,s)));
        CONFIG.devices.forEach(d=>$('device').add(new Option(d.name+' ('+d.id+')',d.id)));
        CONFIG.overlays.forEach(o=>$('show').add(new Option(o,o)));
        function query(){const q=new URLSearchParams();for(const k in state)if(state[k]!=='')q.set(k,state[k]);return q.toString();}
        async function failure(r){try{return (await r.json()).error}catch(e){return 'HTTP '+r.status}}
        async function update(){history.replaceState(null,'','?'+query());
          for(const k of ['scene','device','show'])$(k).value=state[k];$('steady').checked=state.steady==='1';
          const command=await fetch('/command.json?'+query());$('command').value=command.ok?(await command.json()).command:'';
          const picture=await fetch('/scene.png?'+query());
          if(!picture.ok){$('error').textContent=await failure(picture);return;}
          $('screen').src=URL.createObjectURL(await picture.blob());$('error').textContent='';
          await new Promise(r=>{$('screen').onload=r;});
          const all=await fetch('/scene.json?scene='+encodeURIComponent(state.scene)+'&device=all');
          if(!all.ok){$('error').textContent=await failure(all);return;}
          $('all').innerHTML='<tr><th>device</th><th>fps</th><th>80 % range</th><th>GPU %</th><th>offscreen</th><th>frame ms</th><th>warnings</th></tr>'+(await all.json()).map(r=>
            `<tr class="${r.device===state.device?'picked':''}"><td>${r.deviceName}</td><td>${r.fps.toFixed(0)}</td><td>${r.fpsRange[0].toFixed(0)}–${r.fpsRange[1].toFixed(0)} fps</td><td>${r.gpuPercent.toFixed(0)}</td><td>${r.offscreenPasses}</td><td>${r.totalMs.toFixed(2)}</td><td>${r.warnings.map(w=>w.replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'})[c])).join('; ')}</td></tr>`).join('');
          document.body.dataset.updates=(+(document.body.dataset.updates||0)+1).toString();}
        for(const k of ['scene','device','show'])$(k).addEventListener('change',()=>{state[k]=$(k).value;update();});
        $('steady').addEventListener('change',()=>{state.steady=$('steady').checked?'1':'';update();});
        $('upload').addEventListener('change',async()=>{const file=$('upload').files[0];if(!file)return;
          const r=await fetch('/scene',{method:'POST',body:file,headers:{'Backdrop-Token':token,'Backdrop-Name':encodeURIComponent(file.name)}});
          if(!r.ok){$('error').textContent=await failure(r);return;}
          if(![...$('scene').options].some(o=>o.value==='uploaded'))$('scene').add(new Option('uploaded: '+file.name,'uploaded'));
          state.scene='uploaded';update();});
        (async()=>{token=(await (await fetch('/state.json')).json()).token;
          const q=new URLSearchParams(location.search);for(const k in state)if(q.has(k))state[k]=q.get(k);update();})();
        </script></body></html>
        """#
}
