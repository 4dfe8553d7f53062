import Backdrop
import Foundation

/// The preview page: one static HTML file with its script, nothing fetched from the network and no build step.
///
/// The picture shows the effect inside a frame drawn over it; dragging the frame moves it, dragging its corner
/// resizes it, and uploaded vibrant content is a second box dragged the same way. The controls set the style
/// (built-ins, or custom σ, saturation, tint, tint alpha), scale, fast/exact, the path, and the device, which sets
/// the scale to the device's and leaves the path to its decision, as `render --device` does. A panel shows the
/// device's estimate for a view of the frame's size (total, verdict, fps, the timeline) and every device's.
///
/// The state is the page's URL query, with the API's parameter names, so a link reproduces a preview (uploads
/// stay on the server). Rendering is latest-wins: one request in flight, the newest state next, so dragging never
/// queues more than the server answers. Each update's time, from the first change it answers to the frame in
/// which its picture is shown, is kept in `window.previewTimings` (and the last in `data-last-ms` on the body)
/// for the browser test that measures it.
enum PreviewPage {
    /// The page, with the devices and styles it offers written in.
    static var html: String {
        let devices = Device.all.map { ["id": $0.id, "name": $0.name, "scale": $0.scale] as [String: Any] }
        let config: [String: Any] = [
            "devices": devices, "styles": BlurStyle.builtIn.map(\.name),
        ]
        let json = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])) ?? Data("{}".utf8)
        return template.replacingOccurrences(of: "__CONFIG__", with: String(decoding: json, as: UTF8.self))
    }

    static let template = #"""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Backdrop preview</title>
        <style>
        body{font-family:Helvetica,Arial,sans-serif;margin:16px;color:#222;display:flex;gap:20px}
        #stage{position:relative;flex:1;max-width:900px;align-self:flex-start}#stage img{width:100%;display:block;user-select:none}
        .box{position:absolute;box-sizing:border-box;cursor:move;touch-action:none}
        #view{position:absolute;display:block}#frame{border:2px solid #2e86de}#content{border:1px dashed #e67e22;display:none}
        .corner{position:absolute;right:-7px;bottom:-7px;width:12px;height:12px;background:#2e86de;cursor:nwse-resize}
        #side{width:400px;font-size:13px}h2{margin:0 0 8px}h3{margin:14px 0 4px}label{display:block;margin:4px 0}
        table{border-collapse:collapse;font-size:12px;width:100%}td,th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left}
        .drops{color:#c0392b}.tight{color:#b9770e}.fits{color:#1e8449}#timeline{width:100%}
        #command{width:100%;font-family:monospace;font-size:11px}#error{color:#c0392b}#timing{color:#666}
        </style></head>
        <body><div id="stage"><img id="out" alt="the picture"><canvas id="view"></canvas><div id="frame" class="box"><div class="corner"></div></div>
        <div id="content" class="box"></div></div>
        <div id="side"><h2>Backdrop preview</h2><p><a href="/scenes">whole screens: scenes</a></p>
        <label>algorithm <select id="algorithm"><option value="system">system (UIBlurEffect)</option><option value="image-effects">image-effects (UIImage+ImageEffects)</option></select></label>
        <label>style <select id="style"></select></label>
        <div id="custom"><label>σ (points) <input id="sigma" type="number" step="1" min="0"></label>
        <label>saturation <input id="saturation" type="number" step="0.1"></label>
        <label>tint r,g,b <input id="tint"></label><label>tint alpha <input id="tint-alpha" type="number" step="0.05" min="0" max="1"></label></div>
        <label>device <select id="device"><option value="">none</option></select></label>
        <label>scale <input id="scale" type="number" step="0.5" min="0.5" max="16"></label>
        <label><input id="exact" type="checkbox"> exact (full-resolution Gaussian)</label>
        <label>path <select id="path"><option value="auto">auto</option><option value="blur">blur</option><option value="tint-only">tint-only</option></select></label>
        <label>picture <input id="upload" type="file" accept="image/png"></label>
        <label>vibrant content <input id="vibrancy" type="file" accept="image/png"> <button id="unvibrant">remove</button></label>
        <p><a id="download" download="backdrop.png" href="#">download the PNG</a> · <button id="copy">copy the command</button></p>
        <input id="command" readonly><p id="error"></p><p id="timing"></p>
        <h3>Estimate <small>(predicted, a view of the frame's size)</small></h3><div id="estimate"></div><img id="timeline" alt="frame timeline">
        <h3>Every device</h3><table id="all"></table></div>
        <script>
        const CONFIG=__CONFIG__;
        const $=id=>document.getElementById(id), stage=$('stage'), frameBox=$('frame'), contentBox=$('content');
        addEventListener('error',e=>document.body.dataset.error=String(e.message));
        addEventListener('unhandledrejection',e=>document.body.dataset.error=String(e.reason));
        // The state, named as the API names it; defaults are left out of the URL.
        const DEFAULTS={algorithm:'system',style:'light',frame:'',scale:'1',device:'',path:'auto',exact:'',sigma:'20','saturation':'1.8',tint:'1,1,1','tint-alpha':'0.3',at:''};
        const state=Object.assign({},DEFAULTS);
        let picture=null, content=null, token='';
        let busy=false, pending=false, firstChange=null, lastFrame=null;
        window.previewTimings=[];
        CONFIG.styles.concat(['custom','tint']).forEach(s=>$('style').add(new Option(s,s)));
        CONFIG.devices.forEach(d=>$('device').add(new Option(d.name+' ('+d.id+')',d.id)));
        const numbers=s=>s.split(',').map(Number);
        function readURL(){const q=new URLSearchParams(location.search);for(const k in state)if(q.has(k))state[k]=q.get(k);}
        function query(){const q=new URLSearchParams();
          for(const k in state){if(state[k]===''||state[k]===DEFAULTS[k]&&k==='algorithm')continue;
            if(['sigma','saturation','tint','tint-alpha'].includes(k)&&state.style!=='custom'&&!(k==='tint'&&state.style==='tint'))continue;
            if(state.algorithm==='image-effects'&&['path','exact','at'].includes(k))continue;
            if(k==='at'&&!content)continue;q.set(k,state[k]);}
          return q.toString();}
        function controls(){for(const k of ['algorithm','style','device','scale','path','sigma','saturation','tint','tint-alpha'])$(k).value=state[k];
          $('exact').checked=state.exact==='1';$('custom').style.display=state.style==='custom'||state.style==='tint'?'':'none';}
        function place(box,rect){if(!picture)return;const k=stage.clientWidth/picture[0];
          Object.assign(box.style,{left:rect[0]*k+'px',top:rect[1]*k+'px',width:rect[2]*k+'px',height:rect[3]*k+'px'});}
        function placeBoxes(){place(frameBox,numbers(state.frame));if(lastFrame)place($('view'),lastFrame);
          contentBox.style.display=content?'block':'none';if(content){const a=state.at?numbers(state.at):numbers(state.frame).slice(0,2);place(contentBox,[a[0],a[1],content[0],content[1]]);}}
        function changed(){if(firstChange===null)firstChange=performance.now();history.replaceState(null,'','?'+query());
          placeBoxes();render();}
        // The command line is printed by the server from the same request as the picture: one the CLI accepts.
        async function command(){$('download').href='/render.png?'+query();const r=await fetch('/command.json?'+query());
          $('command').value=r.ok?(await r.json()).command:'';}
        async function failure(response){try{return (await response.json()).error}catch(e){return 'HTTP '+response.status}}
        // Latest wins: one request in flight; changes meanwhile make one more, with the newest state.
        async function render(){if(busy){pending=true;return;}busy=true;pending=false;document.body.dataset.busy='1';
          const since=firstChange;firstChange=null;await command();
          const shown=Math.ceil(numbers(state.frame)[2]*stage.clientWidth/picture[0]*devicePixelRatio), url='/render.rgba?'+query()+'&display-width='+shown;
          try{const response=await fetch(url);
            if(!response.ok){$('error').textContent=await failure(response);}
            else{const f=numbers(response.headers.get('Backdrop-Frame')), n=numbers(response.headers.get('Backdrop-Size')), pixels=new Uint8ClampedArray(await response.arrayBuffer());
              const view=$('view');view.width=n[0];view.height=n[1];view.getContext('2d').putImageData(new ImageData(pixels,n[0],n[1]),0,0);
              lastFrame=f;place(view,f);$('error').textContent='';
              await new Promise(r=>requestAnimationFrame(r));const ms=performance.now()-since;
              previewTimings.push(ms);document.body.dataset.lastMs=ms.toFixed(1);document.body.dataset.renders=previewTimings.length;
              $('timing').textContent='updated in '+ms.toFixed(0)+' ms';}
          }finally{busy=false;}
          if(pending)render();else{delete document.body.dataset.busy;estimate();}}
        async function estimate(){if(state.algorithm==='image-effects'){$('estimate').textContent='the cost model prices the system blur';$('all').innerHTML='';document.body.dataset.estimated=(+(document.body.dataset.estimated||0)+1).toString();return;}
          const q=query().replace(/(^|&)device=[^&]*/,''), id=state.device||'ipad-air';
          const one=await fetch('/estimate.json?'+q+'&device='+id);if(!one.ok){$('estimate').textContent=await failure(one);return;}
          const e=await one.json(), verdict=r=>`<span class="${r.verdict.split(' ')[0]}">${r.verdict}</span>`;
          $('estimate').innerHTML=`<b>${e.deviceName}</b>${state.device?'':' (pick a device)'}: ${e.totalMs.toFixed(2)} ms (80 % range ${e.totalMsRange[0].toFixed(1)}–${e.totalMsRange[1].toFixed(1)}), ${e.fps.toFixed(0)} fps, ${verdict(e)}, ${e.path}`;
          $('timeline').src='/estimate.svg?'+q+'&device='+id;
          const all=await fetch('/estimate.json?'+q+'&device=all');if(!all.ok)return;
          $('all').innerHTML='<tr><th>device</th><th>ms</th><th>80 % range</th><th>fps</th><th>verdict</th><th>path</th></tr>'+(await all.json()).map(r=>
            `<tr><td>${r.deviceName}</td><td>${r.totalMs.toFixed(2)}</td><td>${r.totalMsRange[0].toFixed(1)}–${r.totalMsRange[1].toFixed(1)}</td><td>${r.fps.toFixed(0)}</td><td>${verdict(r)}</td><td>${r.path}</td></tr>`).join('');
          document.body.dataset.estimated=(+(document.body.dataset.estimated||0)+1).toString();}
        // Dragging a box moves it; dragging the frame's corner resizes the frame. Coordinates are the picture's pixels.
        function drag(e,what){e.preventDefault();e.stopPropagation();const k=picture[0]/stage.clientWidth,x0=e.clientX,y0=e.clientY;
          const f0=numbers(state.frame), a0=state.at?numbers(state.at):f0.slice(0,2);
          function move(m){const dx=Math.round((m.clientX-x0)*k),dy=Math.round((m.clientY-y0)*k),f=f0.slice();
            if(what==='corner'){f[2]=Math.max(8,Math.min(picture[0]-f[0],f0[2]+dx));f[3]=Math.max(8,Math.min(picture[1]-f[1],f0[3]+dy));}
            else if(what==='frame'){f[0]=Math.max(0,Math.min(picture[0]-f[2],f0[0]+dx));f[1]=Math.max(0,Math.min(picture[1]-f[3],f0[1]+dy));}
            if(what==='content')state.at=[a0[0]+dx,a0[1]+dy].join(',');else state.frame=f.join(',');changed();}
          function up(){removeEventListener('pointermove',move);removeEventListener('pointerup',up);}
          addEventListener('pointermove',move);addEventListener('pointerup',up);}
        frameBox.addEventListener('pointerdown',e=>drag(e,'frame'));frameBox.firstElementChild.addEventListener('pointerdown',e=>drag(e,'corner'));
        contentBox.addEventListener('pointerdown',e=>drag(e,'content'));
        for(const k of ['algorithm','style','device','scale','path','sigma','saturation','tint','tint-alpha'])
          $(k).addEventListener('change',()=>{state[k]=$(k).value;
            if(k==='device'&&state.device){state.scale=String(CONFIG.devices.find(d=>d.id===state.device).scale);state.path='auto';}
            controls();changed();});
        $('exact').addEventListener('change',()=>{state.exact=$('exact').checked?'1':'';changed();});
        $('copy').addEventListener('click',()=>{$('command').select();navigator.clipboard?navigator.clipboard.writeText($('command').value):document.execCommand('copy');});
        async function upload(input,path){const file=input.files[0];if(!file)return;const r=await fetch(path,{method:'POST',body:file,headers:{'Backdrop-Token':token,'Backdrop-Name':encodeURIComponent(file.name)}});
          if(!r.ok){$('error').textContent=await failure(r);return;}
          if(path==='/input'){state.frame='';state.at='';}else{state.at='';}await start();}
        $('upload').addEventListener('change',()=>upload($('upload'),'/input'));$('vibrancy').addEventListener('change',()=>upload($('vibrancy'),'/vibrancy'));
        $('unvibrant').addEventListener('click',async()=>{await fetch('/vibrancy',{method:'DELETE',headers:{'Backdrop-Token':token}});state.at='';await start();});
        async function start(){const s=await (await fetch('/state.json')).json();picture=[s.width,s.height];token=s.token;
          content=s.vibrancy?[s.vibrancy.width,s.vibrancy.height]:null;
          if(!state.frame)state.frame=[picture[0]*0.1,picture[1]*0.55,picture[0]*0.8,picture[1]*0.3].map(Math.round).join(',');
          $('out').src='/input.png?'+Date.now();lastFrame=null;$('view').width=0;controls();changed();}
        addEventListener('resize',placeBoxes);readURL();start();
        </script></body></html>
        """#
}
